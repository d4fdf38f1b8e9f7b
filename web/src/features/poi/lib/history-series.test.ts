import { describe, expect, it } from 'vitest';
import type { HistoryResult, HistorySeries, ParamMeta } from '@/lib/telemetry/types';
import { chartSeriesFor, hasPoints, paramChartOption, type SeriesLabels } from './history-series';

const labels: SeriesLabels = {
  depth: (depth) => `${depth} cm`,
  aggregated: (how) => `${how} of depths`,
  stat: (agg) => `daily ${agg}`,
  dailyMin: 'min',
  dailyMax: 'max',
};

const moisture: ParamMeta = { id: 'soilMoisture', name: 'Soil moisture', unit: '%', precision: 1, perNode: true, daily: ['avg', 'min', 'max'], min: 0, max: 100 };
const rainfall: ParamMeta = { id: 'rainfall', name: 'Rainfall', unit: 'mm', precision: 1, perNode: false, daily: ['sum'], min: 0, max: 300 };
const valve: ParamMeta = { id: 'valveState', name: 'Valve', unit: '', precision: 0, perNode: false, daily: ['max', 'last'], min: 0, max: 1 };

function series(param: string, node: number, extra: Partial<HistorySeries> = {}): HistorySeries {
  return { param, node, name: param, unit: '', precision: 1, total: 2, t: [1, 2], v: [3, 4], sampled: false, ...extra };
}

function result(list: HistorySeries[], dim: 'raw' | 'daily' = 'raw'): HistoryResult {
  return { begin: 0, end: 10, dim, aggregated: 'none', points: 1000, series: list };
}

describe('chartSeriesFor', () => {
  it('draws one line per depth, named by depth', () => {
    const out = chartSeriesFor(moisture, result([series('soilMoisture', 10), series('soilMoisture', 20), series('rainfall', 0)]), labels);
    expect(out.map((s) => [s.name, s.kind])).toEqual([
      ['10 cm', 'line'],
      ['20 cm', 'line'],
    ]);
  });

  it('names a series combined across depths by how it was combined', () => {
    const out = chartSeriesFor(moisture, result([series('soilMoisture', 0, { aggregated: 'average' })]), labels);
    expect(out.map((s) => s.name)).toEqual(['average of depths']);
  });

  it('draws amounts as bars and states as steps', () => {
    expect(chartSeriesFor(rainfall, result([series('rainfall', 0)]), labels)[0]).toMatchObject({ kind: 'bar', name: 'Rainfall' });
    expect(chartSeriesFor(valve, result([series('valveState', 0)]), labels)[0]).toMatchObject({ kind: 'line', step: true });
  });

  it('adds the day minimum and maximum to a single daily average', () => {
    const daily = series('soilMoisture', 0, { aggregated: 'average', agg: 'avg', min: [1, 2], max: [5, 6] });
    const out = chartSeriesFor(moisture, result([daily], 'daily'), labels);
    expect(out.map((s) => [s.name, s.dashed ?? false])).toEqual([
      ['daily avg', false],
      ['max', true],
      ['min', true],
    ]);
    expect(out[1].v).toEqual([5, 6]);
  });

  it('shows the day range around a tilt line whichever statistic it is', () => {
    const tiltX: ParamMeta = { id: 'tiltX', name: 'Tilt X', unit: '°', precision: 2, perNode: false, daily: ['min', 'max', 'last'], min: -90, max: 90 };
    const out = chartSeriesFor(tiltX, result([series('tiltX', 0, { agg: 'min', min: [1, 2], max: [5, 6] })], 'daily'), labels);
    expect(out.map((s) => [s.name, s.dashed ?? false])).toEqual([
      ['daily min', false],
      ['max', true],
    ]);
  });

  it('keeps several daily depths to one line each', () => {
    const out = chartSeriesFor(
      moisture,
      result([series('soilMoisture', 10, { agg: 'avg', min: [1, 1], max: [2, 2] }), series('soilMoisture', 20, { agg: 'avg' })], 'daily'),
      labels,
    );
    expect(out.map((s) => s.name)).toEqual(['10 cm', '20 cm']);
  });
});

describe('hasPoints', () => {
  it('is false when every series is empty', () => {
    expect(hasPoints([{ t: [] }, { t: [] }])).toBe(false);
    expect(hasPoints([{ t: [] }, { t: [1] }])).toBe(true);
    expect(hasPoints([])).toBe(false);
  });
});

describe('paramChartOption', () => {
  const spec = { range: { begin: 0, end: 10 }, dim: 'raw' as const, dark: false, stateNames: { closed: 'Closed', open: 'Open' } };
  type Option = { legend?: unknown; yAxis: { min: unknown; axisLabel: { formatter: (v: number) => string } } };

  it('is null without lines', () => {
    expect(paramChartOption(moisture, [], spec)).toBeNull();
  });

  it('names a state by its names and shows a legend only once a line is named otherwise than the chart', () => {
    const valveChart = paramChartOption(valve, chartSeriesFor(valve, result([series('valveState', 0)]), labels), spec) as Option;
    expect(valveChart.yAxis.axisLabel.formatter(1)).toBe('Open');
    expect(valveChart.legend).toBeUndefined();
    const depth = paramChartOption(moisture, chartSeriesFor(moisture, result([series('soilMoisture', 10)]), labels), spec) as Option;
    expect(depth.legend).toBeDefined();
    const daily = paramChartOption(rainfall, chartSeriesFor(rainfall, result([series('rainfall', 0, { agg: 'sum' })], 'daily'), labels), { ...spec, dim: 'daily' }) as Option;
    expect(daily.legend).toBeDefined();
  });
});
