/**
 * ECharts options built from plain data. Kept free of ECharts code itself, so the page can build
 * options before the chart chunk has loaded and tests can check them without a canvas.
 */
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { MISSING, truncateDecimal } from '@/lib/format';
import { formatWithUnit } from './values';

export interface ChartSeries {
  /** Stable identity, e.g. "soilMoisture@10". */
  key: string;
  name: string;
  kind: 'line' | 'bar';
  t: readonly number[];
  v: readonly number[];
  /** A state such as a valve: drawn as steps. */
  step?: boolean;
  /** Secondary lines such as a day's minimum and maximum. */
  dashed?: boolean;
  color?: string;
}

export interface HorizontalMark {
  value: number;
  label: string;
  color: string;
}

export interface TimeChartSpec {
  series: ChartSeries[];
  unit: string;
  precision: number;
  /** The x axis spans this range even where readings are missing. */
  range?: { begin: number; end: number };
  /** Days on the axis and in the tooltip instead of times. */
  daily?: boolean;
  marks?: HorizontalMark[];
  /** Names for values such as 0 → Closed; the axis then shows only those. */
  valueNames?: Record<number, string>;
  /** Shows the series names even for a single series (e.g. "Average of chosen depths"). */
  legend?: boolean;
  dark: boolean;
}

/** Series colours that read on both light and dark backgrounds; the first is the brand blue. */
export const PALETTE = [
  '#3961ff',
  '#13a8a8',
  '#fa8c16',
  '#722ed1',
  '#52c41a',
  '#eb2f96',
  '#faad14',
  '#2f54eb',
  '#a0d911',
  '#8c8c8c',
];

const AXIS_DECIMALS = 4;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function axisColors(dark: boolean) {
  return dark
    ? { text: 'rgba(255,255,255,0.65)', line: 'rgba(255,255,255,0.25)', split: 'rgba(255,255,255,0.08)' }
    : { text: 'rgba(0,0,0,0.55)', line: 'rgba(0,0,0,0.25)', split: 'rgba(0,0,0,0.06)' };
}

export function formatAxisTime(time: number, daily: boolean): string {
  return dayjs(time).format(daily ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm');
}

interface TooltipParam {
  marker?: string;
  seriesName?: string;
  value?: unknown;
  axisValue?: number | string;
}

/** The value shown for a point: a state name when the parameter has them. */
export function valueLabel(value: unknown, spec: Pick<TimeChartSpec, 'unit' | 'precision' | 'valueNames'>): string {
  const number = typeof value === 'number' ? value : Number.NaN;
  if (!Number.isFinite(number)) return MISSING;
  const named = spec.valueNames?.[number];
  if (named) return named;
  return formatWithUnit(number, spec.unit, spec.precision);
}

type Extent = { min: number; max: number };

/**
 * An axis range at least 20 steps of the reading's precision tall (0.2 m for a level read to
 * 0.01 m), centred on the data, or null to let the chart choose: a reading that flickers by
 * its last digit should look flat, not like a square wave.
 */
export function widened({ min, max }: Extent, precision: number): [number, number] | null {
  const span = 20 * 10 ** -precision;
  if (!Number.isFinite(min) || !Number.isFinite(max) || max - min >= span) return null;
  const mid = (min + max) / 2;
  const f = 10 ** precision;
  return [Math.floor((mid - span / 2) * f) / f, Math.ceil((mid + span / 2) * f) / f];
}

export function timeSeriesOption(spec: TimeChartSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const multiple = spec.series.length > 1 || Boolean(spec.legend);
  const states = spec.valueNames ? Object.keys(spec.valueNames).map(Number) : null;
  return {
    backgroundColor: 'transparent',
    color: PALETTE,
    animation: false,
    grid: { left: 8, right: 24, top: multiple ? 36 : 16, bottom: 8, containLabel: true },
    legend: multiple ? { top: 0, type: 'scroll', textStyle: { color: colors.text } } : undefined,
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const params = Array.isArray(raw) ? raw : [raw];
        if (params.length === 0) return '';
        const time = Number(params[0].axisValue);
        const rows = params.map((p) => {
          const value = Array.isArray(p.value) ? p.value[1] : p.value;
          return `${p.marker ?? ''}${escapeHtml(p.seriesName ?? '')}&nbsp;&nbsp;<b>${escapeHtml(valueLabel(value, spec))}</b>`;
        });
        return [escapeHtml(formatAxisTime(time, Boolean(spec.daily))), ...rows].join('<br/>');
      },
    },
    dataZoom: [{ type: 'inside', zoomOnMouseWheel: 'ctrl', moveOnMouseWheel: false, moveOnMouseMove: true }],
    xAxis: {
      type: 'time',
      min: spec.range?.begin,
      max: spec.range?.end,
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: {
        color: colors.text,
        hideOverlap: true,
        formatter: spec.daily
          ? { year: '{yyyy}', month: '{MM}-{dd}', day: '{MM}-{dd}', hour: '{MM}-{dd}', minute: '{MM}-{dd}' }
          : { year: '{yyyy}', month: '{MM}-{dd}', day: '{MM}-{dd}', hour: '{HH}:{mm}', minute: '{HH}:{mm}', second: '{HH}:{mm}' },
      },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      scale: !spec.series.some((s) => s.kind === 'bar') && !states,
      min: states ? Math.min(...states) : (e: Extent) => widened(e, spec.precision)?.[0] ?? null,
      max: states ? Math.max(...states) : (e: Extent) => widened(e, spec.precision)?.[1] ?? null,
      interval: states ? 1 : undefined,
      // Whole-number readings (counts, dBm) get whole-number ticks.
      minInterval: spec.precision === 0 ? 1 : undefined,
      axisLabel: {
        color: colors.text,
        // Ticks may fall between the readings' decimals (3.395 between 3.39 and 3.40).
        formatter: (value: number) => spec.valueNames?.[value] ?? truncateDecimal(value, AXIS_DECIMALS),
      },
      splitLine: { lineStyle: { color: colors.split } },
    },
    series: spec.series.map((s, index) => {
      const data = s.t.map((time, i) => [time, s.v[i]]);
      const color = s.color ?? PALETTE[index % PALETTE.length];
      const marks =
        index === 0 && spec.marks?.length
          ? {
              markLine: {
                silent: true,
                symbol: 'none',
                data: spec.marks.map((m) => ({
                  yAxis: m.value,
                  name: m.label,
                  lineStyle: { color: m.color, type: 'dashed' },
                  label: { formatter: m.label, color: m.color, position: 'insideEndTop' },
                })),
              },
            }
          : {};
      if (s.kind === 'bar') {
        return { type: 'bar', name: s.name, data, barMaxWidth: 14, itemStyle: { color }, ...marks };
      }
      return {
        type: 'line',
        name: s.name,
        data,
        showSymbol: s.t.length <= 1,
        symbolSize: 5,
        step: s.step ? 'end' : undefined,
        sampling: undefined,
        lineStyle: { width: s.dashed ? 1 : 2, type: s.dashed ? 'dashed' : 'solid', color, opacity: s.dashed ? 0.7 : 1 },
        itemStyle: { color },
        emphasis: { focus: 'series' },
        ...marks,
      };
    }),
  };
}

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
  const timeLabel = (time: number) => dayjs(time).format(spec.daily ? 'MM-DD' : 'MM-DD HH:mm');
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

/** A rain bucket as the server sums it; mm null where nothing was reported. */
export interface RainBar {
  time: number;
  mm: number | null;
  /** Shown under the amount in the tooltip, e.g. "Moderate rain". */
  note?: string;
}

export interface RainBarsSpec {
  bars: readonly RainBar[];
  name: string;
  range: { begin: number; end: number };
  /** Days (or months) on the axis and in the tooltip instead of hours. */
  daily: boolean;
  /** Month buckets: the tooltip shows the month only. */
  monthly?: boolean;
  dark: boolean;
}

/** Rain per hour, day or month as the server summed it, with each bucket's class in the tooltip. */
export function rainBarsOption(spec: RainBarsSpec): EChartsCoreOption {
  const base = timeSeriesOption({
    series: [{ key: 'rain', name: spec.name, kind: 'bar', t: spec.bars.map((b) => b.time), v: spec.bars.map((b) => b.mm as number) }],
    unit: 'mm',
    precision: 1,
    range: spec.range,
    daily: spec.daily,
    dark: spec.dark,
  });
  const byTime = new Map(spec.bars.map((b) => [b.time, b]));
  const yAxis = base.yAxis as Record<string, unknown>;
  return {
    ...base,
    // Rain starts at 0, and a dry period still shows a sensible scale.
    yAxis: { ...yAxis, scale: false, min: 0, max: (e: Extent) => (e.max < 1 ? 1 : null) },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const [p] = Array.isArray(raw) ? raw : [raw];
        if (!p) return '';
        const time = Array.isArray(p.value) ? Number(p.value[0]) : Number(p.axisValue);
        const bar = byTime.get(time);
        const head = spec.monthly ? dayjs(time).format('YYYY-MM') : formatAxisTime(time, spec.daily);
        const amount = bar?.mm === null || bar === undefined ? MISSING : formatWithUnit(bar.mm, 'mm', 1);
        const rows = [escapeHtml(head), `${p.marker ?? ''}${escapeHtml(spec.name)}&nbsp;&nbsp;<b>${escapeHtml(amount)}</b>`];
        if (bar?.note) rows.push(escapeHtml(bar.note));
        return rows.join('<br/>');
      },
    },
  };
}

export interface RecentRainSpec {
  /** Hour buckets, oldest first. */
  hourly: readonly { time: number; mm: number | null }[];
  /** [time, mm since the start] at each reading. */
  cumulative: readonly (readonly [number, number])[];
  range: { begin: number; end: number };
  names: { hourly: string; cumulative: string; hourlyAxis: string; cumulativeAxis: string };
  dark: boolean;
}

/** The last hours of rain: hourly bars and the running total on a second axis. */
export function recentRainOption(spec: RecentRainSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const axisLabel = { color: colors.text, formatter: (value: number) => truncateDecimal(value, 1) };
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 8, top: 30, bottom: 4, containLabel: true },
    // Centred: the axis names sit in the top corners.
    legend: { top: 0, left: 'center', textStyle: { color: colors.text } },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const params = Array.isArray(raw) ? raw : [raw];
        if (params.length === 0) return '';
        const rows = params.map((p) => {
          const value = Array.isArray(p.value) ? p.value[1] : p.value;
          const text = typeof value === 'number' ? formatWithUnit(value, 'mm', 1) : MISSING;
          return `${p.marker ?? ''}${escapeHtml(p.seriesName ?? '')}&nbsp;&nbsp;<b>${escapeHtml(text)}</b>`;
        });
        return [escapeHtml(formatAxisTime(Number(params[0].axisValue), false)), ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      min: spec.range.begin,
      max: spec.range.end,
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: { color: colors.text, hideOverlap: true, formatter: { day: '{MM}-{dd}', hour: '{HH}:{mm}', minute: '{HH}:{mm}' } },
      splitLine: { show: false },
    },
    yAxis: [
      { type: 'value', name: spec.names.hourlyAxis, nameTextStyle: { color: colors.text, align: 'left' }, minInterval: 0.1, axisLabel, splitLine: { lineStyle: { color: colors.split } } },
      { type: 'value', name: spec.names.cumulativeAxis, nameTextStyle: { color: colors.text, align: 'right' }, minInterval: 0.1, axisLabel, splitLine: { show: false } },
    ],
    series: [
      {
        type: 'bar',
        name: spec.names.hourly,
        barMaxWidth: 14,
        // Centred on its hour: the bucket starts at the hour.
        data: spec.hourly.map((h) => [h.time + 30 * 60_000, h.mm]),
        itemStyle: { color: PALETTE[0] },
      },
      {
        type: 'line',
        name: spec.names.cumulative,
        yAxisIndex: 1,
        step: 'end',
        showSymbol: false,
        data: spec.cumulative.map(([time, mm]) => [time, mm]),
        lineStyle: { width: 2, color: PALETTE[1] },
        itemStyle: { color: PALETTE[1] },
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
    grid: { left: 8, right: 24, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const [p] = Array.isArray(raw) ? raw : [raw];
        if (!p || !Array.isArray(p.value)) return '';
        const [time, depth] = p.value as [number, number | null];
        const text = typeof depth === 'number' ? `${truncateDecimal(depth, 0)} cm` : spec.noneLabel;
        return `${escapeHtml(dayjs(time).format('YYYY-MM-DD'))}<br/>${p.marker ?? ''}${escapeHtml(spec.name)}&nbsp;&nbsp;<b>${escapeHtml(text)}</b>`;
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
        data: spec.points.map((p) => [p.time, p.depth]),
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

export interface YawSpec {
  /** Oldest first. */
  points: readonly { time: number; direction: number; tilt: number }[];
  labels: { points: string; latest: string; direction: string; tilt: string; xAxis: string; yAxis: string };
  dark: boolean;
}

/**
 * Where the monitor leans: direction round the circle (counter-clockwise from the sensor's X axis,
 * which points right) and the tilt from vertical as the distance from the centre.
 */
export function yawOption(spec: YawSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const last = spec.points[spec.points.length - 1];
  const maxTilt = spec.points.reduce((m, p) => Math.max(m, p.tilt), 0);
  const first = spec.points[0]?.time ?? 0;
  const span = Math.max(1, (last?.time ?? 0) - first);
  const tooltip = (p: { value?: [number, number, number] }) => {
    const [tilt, direction, time] = p.value ?? [Number.NaN, Number.NaN, 0];
    return [
      escapeHtml(formatAxisTime(time, false)),
      `${escapeHtml(spec.labels.direction)}&nbsp;&nbsp;<b>${escapeHtml(formatWithUnit(direction, '°', 1))}</b>`,
      `${escapeHtml(spec.labels.tilt)}&nbsp;&nbsp;<b>${escapeHtml(formatWithUnit(tilt, '°', 2))}</b>`,
    ].join('<br/>');
  };
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { bottom: 0, textStyle: { color: colors.text } },
    tooltip: { trigger: 'item', confine: true, formatter: tooltip },
    polar: { radius: '72%', center: ['50%', '48%'] },
    angleAxis: {
      type: 'value',
      min: 0,
      max: 360,
      startAngle: 0,
      clockwise: false,
      interval: 45,
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: {
        color: colors.text,
        formatter: (value: number) => (value === 0 ? `0° ${spec.labels.xAxis}` : value === 90 ? `90° ${spec.labels.yAxis}` : `${value}°`),
      },
      splitLine: { lineStyle: { color: colors.split } },
    },
    radiusAxis: {
      type: 'value',
      min: 0,
      max: maxTilt > 0 ? Math.ceil(maxTilt * 1.15 * 100) / 100 : 1,
      axisLabel: { color: colors.text, formatter: (value: number) => `${truncateDecimal(value, 2)}°` },
      splitLine: { lineStyle: { color: colors.split } },
      axisLine: { lineStyle: { color: colors.line } },
    },
    series: [
      {
        type: 'scatter',
        coordinateSystem: 'polar',
        name: spec.labels.points,
        symbolSize: 5,
        // Older readings fade: the trail shows which way the lean has been moving.
        data: spec.points.map((p) => ({ value: [p.tilt, p.direction, p.time], itemStyle: { opacity: 0.2 + (0.6 * (p.time - first)) / span } })),
        itemStyle: { color: PALETTE[0] },
      },
      {
        type: 'scatter',
        coordinateSystem: 'polar',
        name: spec.labels.latest,
        symbolSize: 14,
        symbol: 'diamond',
        data: last ? [[last.tilt, last.direction, last.time]] : [],
        itemStyle: { color: '#f5222d' },
        z: 3,
      },
    ],
  };
}
