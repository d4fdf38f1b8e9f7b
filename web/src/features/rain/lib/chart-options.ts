/** ECharts options of the rain gauge: rain per hour, day or month, and the recent hours. */
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { axisColors, escapeHtml, formatWallClock, PALETTE, timeSeriesOption, type Extent, type TooltipParam } from '@/components/charts/chart-options';
import { wallClock } from '@/lib/farm-time';
import { formatWithUnit, MISSING, truncateDecimal } from '@/lib/format';

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
  const byTime = new Map(spec.bars.map((b) => [wallClock(b.time), b]));
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
        const head = spec.monthly ? dayjs.utc(time).format('YYYY-MM') : formatWallClock(time, spec.daily);
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
    useUTC: true,
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
        return [escapeHtml(formatWallClock(Number(params[0].axisValue), false)), ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      min: wallClock(spec.range.begin),
      max: wallClock(spec.range.end),
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
        data: spec.hourly.map((h) => [wallClock(h.time) + 30 * 60_000, h.mm]),
        itemStyle: { color: PALETTE[0] },
      },
      {
        type: 'line',
        name: spec.names.cumulative,
        yAxisIndex: 1,
        step: 'end',
        showSymbol: false,
        data: spec.cumulative.map(([time, mm]) => [wallClock(time), mm]),
        lineStyle: { width: 2, color: PALETTE[1] },
        itemStyle: { color: PALETTE[1] },
      },
    ],
  };
}
