/** ECharts options of the soil analyses: the depth × time heatmap, moisture profiles, root depth and root zone. */
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { axisColors, escapeHtml, formatAxisTime, PALETTE, type TooltipParam } from '@/components/charts/chart-options';
import { farmTime, wallClock } from '@/lib/farm-time';
import { formatWithUnit, MISSING, truncateDecimal } from '@/lib/format';

export interface HeatmapSpec {
  /** Bucket starts, oldest first. */
  times: readonly number[];
  /** Depths in cm, shallowest first; drawn top to bottom. */
  depths: readonly number[];
  /** [time index, depth index, value]. */
  cells: readonly (readonly [number, number, number])[];
  unit: string;
  precision: number;
  name: string;
  depthLabel: (depth: number) => string;
  /** Buckets of a day or longer show dates only. */
  daily: boolean;
  /** Low to high. */
  colors?: readonly string[];
  dark: boolean;
}

/** Dry (warm) to wet (blue). */
export const MOISTURE_COLORS = ['#d7301f', '#fc8d59', '#fee08b', '#91cf60', '#4393c3', '#2166ac'];

export function heatmapOption(spec: HeatmapSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const values = spec.cells.map((cell) => cell[2]);
  const min = values.length ? Math.floor(Math.min(...values)) : 0;
  const max = values.length ? Math.ceil(Math.max(...values)) : 1;
  const timeLabel = (time: number) => farmTime(time).format(spec.daily ? 'MM-DD' : 'MM-DD HH:mm');
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 88, top: 12, bottom: 8, containLabel: true },
    tooltip: {
      confine: true,
      formatter: (p: { value?: [number, number, number] }) => {
        const [x, y, value] = p.value ?? [0, 0, Number.NaN];
        return [
          escapeHtml(formatAxisTime(spec.times[x], spec.daily)),
          `${escapeHtml(spec.depthLabel(spec.depths[y]))}&nbsp;&nbsp;${escapeHtml(spec.name)}&nbsp;<b>${escapeHtml(
            formatWithUnit(value, spec.unit, spec.precision),
          )}</b>`,
        ].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: spec.times.map(timeLabel),
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: { color: colors.text, hideOverlap: true },
      splitArea: { show: false },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: spec.depths.map(spec.depthLabel),
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: { color: colors.text },
    },
    visualMap: {
      type: 'continuous',
      min,
      max,
      calculable: true,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      itemHeight: 160,
      formatter: (value: number) => formatWithUnit(value, spec.unit, spec.precision),
      textStyle: { color: colors.text },
      inRange: { color: [...(spec.colors ?? MOISTURE_COLORS)] },
    },
    series: [
      {
        type: 'heatmap',
        name: spec.name,
        data: spec.cells.map((cell) => [...cell]),
        progressive: 0,
        emphasis: { itemStyle: { borderColor: colors.text, borderWidth: 1 } },
      },
    ],
  };
}

export interface ProfileSpec {
  /** Shallowest first. */
  layers: readonly { depth: number; before: number; after: number }[];
  /** The deepest layer the water reached, cm; marked across the chart. */
  frontDepth?: number | null;
  labels: { before: string; after: string; front: (depth: number) => string; depth: (depth: number) => string };
  dark: boolean;
}

/** A moisture profile before and after an event: depth down the side, vol % across. */
export function profileOption(spec: ProfileSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const depths = spec.layers.map((l) => spec.labels.depth(l.depth));
  const front = spec.frontDepth ? spec.layers.findIndex((l) => l.depth === spec.frontDepth) : -1;
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0, textStyle: { color: colors.text } },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line', axis: 'y' },
      valueFormatter: (value: unknown) => (typeof value === 'number' ? formatWithUnit(value, '%', 1) : MISSING),
    },
    xAxis: {
      type: 'value',
      name: '%',
      scale: true,
      nameTextStyle: { color: colors.text },
      axisLabel: { color: colors.text },
      splitLine: { lineStyle: { color: colors.split } },
    },
    yAxis: { type: 'category', inverse: true, data: depths, boundaryGap: false, axisLine: { lineStyle: { color: colors.line } }, axisLabel: { color: colors.text } },
    series: [
      {
        type: 'line',
        name: spec.labels.before,
        data: spec.layers.map((l) => l.before),
        symbolSize: 7,
        lineStyle: { width: 2, type: 'dashed', color: '#fa8c16' },
        itemStyle: { color: '#fa8c16' },
      },
      {
        type: 'line',
        name: spec.labels.after,
        data: spec.layers.map((l) => l.after),
        symbolSize: 7,
        lineStyle: { width: 2, color: PALETTE[0] },
        itemStyle: { color: PALETTE[0] },
        areaStyle: undefined,
        markLine:
          front >= 0
            ? {
                silent: true,
                symbol: 'none',
                data: [{ yAxis: front }],
                lineStyle: { color: '#13a8a8', type: 'dotted', width: 2 },
                label: { formatter: spec.labels.front(spec.frontDepth ?? 0), color: '#13a8a8', position: 'insideEndBottom' },
              }
            : undefined,
      },
    ],
  };
}

export interface RootDepthHistorySpec {
  /** One point per window, oldest first; depth null where no layer showed roots at work. */
  points: readonly { time: number; depth: number | null }[];
  /** The deepest node, cm: the axis reaches it. */
  maxDepth: number;
  name: string;
  noneLabel: string;
  dark: boolean;
}

/** The active root depth of successive windows: depth grows downwards, as in the soil. */
export function rootDepthHistoryOption(spec: RootDepthHistorySpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  return {
    backgroundColor: 'transparent',
    animation: false,
    useUTC: true,
    grid: { left: 8, right: 24, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const [p] = Array.isArray(raw) ? raw : [raw];
        if (!p || !Array.isArray(p.value)) return '';
        const [time, depth] = p.value as [number, number | null];
        const text = typeof depth === 'number' ? `${truncateDecimal(depth, 0)} cm` : spec.noneLabel;
        return `${escapeHtml(dayjs.utc(time).format('YYYY-MM-DD'))}<br/>${p.marker ?? ''}${escapeHtml(spec.name)}&nbsp;&nbsp;<b>${escapeHtml(text)}</b>`;
      },
    },
    xAxis: {
      type: 'time',
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: { color: colors.text, hideOverlap: true, formatter: { year: '{yyyy}', month: '{MM}-{dd}', day: '{MM}-{dd}', hour: '{MM}-{dd}' } },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      inverse: true,
      min: 0,
      max: spec.maxDepth,
      interval: 10,
      axisLabel: { color: colors.text, formatter: '{value} cm' },
      splitLine: { lineStyle: { color: colors.split } },
    },
    series: [
      {
        type: 'line',
        name: spec.name,
        step: 'middle',
        connectNulls: false,
        symbolSize: 8,
        data: spec.points.map((p) => [wallClock(p.time), p.depth]),
        lineStyle: { width: 2, color: '#52c41a' },
        itemStyle: { color: '#52c41a' },
        areaStyle: { color: 'rgba(82,196,26,0.12)' },
      },
    ],
  };
}

export interface RootZoneSpec {
  /** Relative moisture of the root zone, % of field capacity. */
  relative: number;
  /** Where irrigation is due, % of field capacity. */
  refill: number;
  labels: { now: string; refill: string; fieldCapacity: string; dry: string; available: string; wet: string };
  dark: boolean;
}

/** The root zone's water on one bar: below the refill point, readily available, above field capacity. */
export function rootZoneOption(spec: RootZoneSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const max = Math.max(120, Math.ceil((spec.relative + 10) / 10) * 10);
  const band = (from: number, to: number, color: string, name: string) => [
    { xAxis: from, itemStyle: { color }, label: { show: true, position: 'insideTop', formatter: name, color: colors.text, fontSize: 11 } },
    { xAxis: to },
  ];
  const barColor = spec.relative < spec.refill ? '#fa8c16' : spec.relative > 100 ? '#1677ff' : '#52c41a';
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 24, top: 24, bottom: 8, containLabel: true },
    tooltip: { show: false },
    xAxis: {
      type: 'value',
      min: 0,
      max,
      interval: 20,
      axisLabel: { color: colors.text, formatter: '{value}%' },
      splitLine: { show: false },
    },
    yAxis: { type: 'category', data: [spec.labels.now], axisLabel: { color: colors.text }, axisLine: { lineStyle: { color: colors.line } } },
    series: [
      {
        type: 'bar',
        name: spec.labels.now,
        data: [spec.relative],
        barWidth: 22,
        itemStyle: { color: barColor, borderRadius: [0, 4, 4, 0] },
        label: { show: true, position: 'right', formatter: `${truncateDecimal(spec.relative, 0)}%`, color: colors.text, fontWeight: 'bold' },
        markArea: {
          silent: true,
          data: [
            band(0, spec.refill, spec.dark ? 'rgba(250,140,22,0.16)' : 'rgba(250,140,22,0.12)', spec.labels.dry),
            band(spec.refill, 100, spec.dark ? 'rgba(82,196,26,0.16)' : 'rgba(82,196,26,0.12)', spec.labels.available),
            band(100, max, spec.dark ? 'rgba(22,119,255,0.16)' : 'rgba(22,119,255,0.10)', spec.labels.wet),
          ],
        },
        markLine: {
          silent: true,
          symbol: 'none',
          data: [
            { xAxis: spec.refill, lineStyle: { color: '#fa8c16', type: 'dashed' }, label: { formatter: spec.labels.refill, color: '#fa8c16', position: 'end' } },
            { xAxis: 100, lineStyle: { color: '#1677ff', type: 'dashed' }, label: { formatter: spec.labels.fieldCapacity, color: '#1677ff', position: 'end' } },
          ],
        },
      },
    ],
  };
}
