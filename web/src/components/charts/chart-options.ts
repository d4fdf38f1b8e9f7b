/**
 * ECharts options built from plain data. Kept free of ECharts code itself, so the page can build
 * options before the chart chunk has loaded and tests can check them without a canvas.
 */
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { farmTime, wallClock } from '@/lib/farm-time';
import { formatWithUnit, MISSING, truncateDecimal } from '@/lib/format';

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
  /** The lowest reading possible (the catalogue's min, 0 for rain or counts): the axis never goes below it. */
  floor?: number;
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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function axisColors(dark: boolean) {
  return dark
    ? { text: 'rgba(255,255,255,0.65)', line: 'rgba(255,255,255,0.25)', split: 'rgba(255,255,255,0.08)' }
    : { text: 'rgba(0,0,0,0.55)', line: 'rgba(0,0,0,0.25)', split: 'rgba(0,0,0,0.06)' };
}

/** An instant on the farm's clock, as a tooltip heads it. */
export function formatAxisTime(time: number, daily: boolean): string {
  return farmTime(time).format(daily ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm');
}

/**
 * Time axes are drawn in UTC (`useUTC`) over instants moved to the farm's wall clock (`wallClock`),
 * so ticks fall on the farm's hours and midnights whatever the browser's zone; an axis value reads
 * back as it stands.
 */
export function formatWallClock(axisValue: number, daily: boolean): string {
  return dayjs.utc(axisValue).format(daily ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm');
}

export interface TooltipParam {
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

export type Extent = { min: number; max: number };

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

/**
 * The y axis bounds of a chart: `widened`, moved up to the lowest possible reading and out to
 * whole ticks (5 steps of the precision, the interval ECharts picks for that span), so a bound's
 * label never crowds a tick's (-0.58 next to -0.6). Null lets the chart choose.
 */
export function axisBounds(extent: Extent, precision: number, floor = -Infinity): [number, number] | null {
  const range = widened(extent, precision);
  if (!range) return null;
  const step = 5 * 10 ** -precision;
  const round = (value: number) => Number(value.toFixed(precision + 1));
  let low = Math.floor(round(range[0] / step)) * step;
  let high = Math.ceil(round(range[1] / step)) * step;
  if (low < floor) {
    high = Math.ceil(round((high + floor - low) / step)) * step;
    low = floor;
  }
  return [round(low), round(high)];
}

export function timeSeriesOption(spec: TimeChartSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const multiple = spec.series.length > 1 || Boolean(spec.legend);
  const states = spec.valueNames ? Object.keys(spec.valueNames).map(Number) : null;
  return {
    backgroundColor: 'transparent',
    color: PALETTE,
    animation: false,
    useUTC: true,
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
        return [escapeHtml(formatWallClock(time, Boolean(spec.daily))), ...rows].join('<br/>');
      },
    },
    dataZoom: [{ type: 'inside', zoomOnMouseWheel: 'ctrl', moveOnMouseWheel: false, moveOnMouseMove: true }],
    xAxis: {
      type: 'time',
      min: spec.range ? wallClock(spec.range.begin) : undefined,
      max: spec.range ? wallClock(spec.range.end) : undefined,
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
      min: states ? Math.min(...states) : (e: Extent) => axisBounds(e, spec.precision, spec.floor)?.[0] ?? null,
      max: states ? Math.max(...states) : (e: Extent) => axisBounds(e, spec.precision, spec.floor)?.[1] ?? null,
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
      const data = s.t.map((time, i) => [wallClock(time), s.v[i]]);
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
