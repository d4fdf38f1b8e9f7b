import { timeSeriesOption, type ChartSeries } from '@/components/charts/chart-options';
import type { DailyAgg, HistoryDim, HistoryResult, HistorySeries, NodeAggregation, ParamMeta } from '@/lib/telemetry/types';
import type { TimeRange } from '@/lib/time-range';
import { isAmount, STATE_PARAMS } from './params';

export interface SeriesLabels {
  depth: (depth: number) => string;
  aggregated: (how: Exclude<NodeAggregation, 'none'>) => string;
  stat: (agg: DailyAgg) => string;
  dailyMin: string;
  dailyMax: string;
}

function seriesName(param: ParamMeta, series: HistorySeries, labels: SeriesLabels): string {
  if (series.aggregated && series.aggregated !== 'none') {
    return labels.aggregated(series.aggregated as Exclude<NodeAggregation, 'none'>);
  }
  if (series.node > 0) return labels.depth(series.node);
  return param.name;
}

/**
 * The chart lines of one parameter from a history answer: a line per depth (or the depths
 * combined), bars for amounts such as rain, steps for states. A single daily line also shows the
 * day's minimum and maximum, dashed, whichever statistic the line itself is.
 */
export function chartSeriesFor(param: ParamMeta, result: HistoryResult, labels: SeriesLabels): ChartSeries[] {
  const matching = result.series.filter((series) => series.param === param.id);
  const kind = isAmount(param) ? 'bar' : 'line';
  const step = STATE_PARAMS.has(param.id);
  const out: ChartSeries[] = [];
  for (const series of matching) {
    const base = seriesName(param, series, labels);
    const daily = result.dim === 'daily';
    const name = daily && matching.length === 1 && series.agg ? labels.stat(series.agg) : base;
    out.push({ key: `${param.id}@${series.node}`, name, kind, step, t: series.t, v: series.v });
    const band = daily && matching.length === 1 && kind === 'line' && !step;
    if (band && series.max && series.agg !== 'max') {
      out.push({ key: `${param.id}@${series.node}:max`, name: labels.dailyMax, kind, dashed: true, t: series.t, v: series.max });
    }
    if (band && series.min && series.agg !== 'min') {
      out.push({ key: `${param.id}@${series.node}:min`, name: labels.dailyMin, kind, dashed: true, t: series.t, v: series.min });
    }
  }
  return out;
}

export function hasPoints(series: readonly { t: readonly number[] }[]): boolean {
  return series.some((s) => s.t.length > 0);
}

export interface ParamChartSpec {
  range: TimeRange;
  dim: HistoryDim;
  dark: boolean;
  /** How a state such as a valve reads: 0 and 1 by name. */
  stateNames: { closed: string; open: string };
}

/**
 * The chart of one parameter's lines over a period, or null when there are no lines: its unit and
 * precision, never below the parameter's floor, states by name, and a legend once a line is named
 * otherwise than the chart (a daily mean, depths, depths combined).
 */
export function paramChartOption(param: ParamMeta, series: ChartSeries[], { range, dim, dark, stateNames }: ParamChartSpec) {
  if (series.length === 0) return null;
  return timeSeriesOption({
    series,
    unit: param.unit,
    precision: param.precision,
    range,
    floor: param.min,
    daily: dim === 'daily',
    valueNames: STATE_PARAMS.has(param.id) ? { 0: stateNames.closed, 1: stateNames.open } : undefined,
    legend: series.length > 1 || series[0].name !== param.name,
    dark,
  });
}
