import { describe, expect, it } from 'vitest';
import {
  heatmapOption,
  profileOption,
  rainBarsOption,
  rootDepthHistoryOption,
  rootZoneOption,
  timeSeriesOption,
  valueLabel,
  widened,
  yawOption,
  type TimeChartSpec,
} from './chart-options';

type Series = { type: string; step?: string; data: number[][]; markLine?: { data: { yAxis: number }[] } };
type Axis = { min?: number; max?: number; minInterval?: number; axisLabel: { formatter: (v: number) => string } };

function spec(overrides: Partial<TimeChartSpec> = {}): TimeChartSpec {
  return {
    series: [{ key: 'a', name: 'Air temperature', kind: 'line', t: [1, 2], v: [18.37, 19] }],
    unit: '°C',
    precision: 1,
    dark: false,
    ...overrides,
  };
}

describe('timeSeriesOption', () => {
  it('pairs times with values and spans the chosen period', () => {
    const option = timeSeriesOption(spec({ range: { begin: 0, end: 10 } })) as { series: Series[]; xAxis: Axis; legend?: unknown };
    expect(option.series[0]).toMatchObject({ type: 'line', data: [[1, 18.37], [2, 19]] });
    expect(option.xAxis).toMatchObject({ min: 0, max: 10 });
    expect(option.legend).toBeUndefined(); // one line: the chart title names it
  });

  it('draws amounts as bars, states as steps, and marks thresholds', () => {
    const option = timeSeriesOption(
      spec({
        series: [
          { key: 'r', name: 'Rain', kind: 'bar', t: [1], v: [2] },
          { key: 'v', name: 'Valve', kind: 'line', step: true, t: [1], v: [1] },
        ],
        marks: [{ value: 50, label: '50 mm', color: 'red' }],
      }),
    ) as { series: Series[]; legend?: unknown };
    expect(option.series.map((s) => [s.type, s.step])).toEqual([
      ['bar', undefined],
      ['line', 'end'],
    ]);
    expect(option.series[0].markLine?.data[0].yAxis).toBe(50);
    expect(option.legend).toBeDefined();
  });

  it('labels a state axis with its names and counts with whole numbers', () => {
    const states = timeSeriesOption(spec({ valueNames: { 0: 'Closed', 1: 'Open' }, precision: 0 })) as { yAxis: Axis };
    expect(states.yAxis).toMatchObject({ min: 0, max: 1 });
    expect(states.yAxis.axisLabel.formatter(1)).toBe('Open');
    const counts = timeSeriesOption(spec({ precision: 0 })) as { yAxis: Axis };
    expect(counts.yAxis.minInterval).toBe(1);
  });

  it('keeps axis ticks that fall between the readings decimals distinct', () => {
    const option = timeSeriesOption(spec({ precision: 2 })) as { yAxis: Axis };
    expect(option.yAxis.axisLabel.formatter(3.395)).toBe('3.395');
    expect(option.yAxis.axisLabel.formatter(3.4)).toBe('3.4');
  });
});

describe('valueLabel', () => {
  it('truncates to the precision, adds the unit and shows -- for a gap', () => {
    expect(valueLabel(18.37, { unit: '°C', precision: 1 })).toBe('18.3 °C');
    expect(valueLabel(null, { unit: '°C', precision: 1 })).toBe('--');
    expect(valueLabel(1, { unit: '', precision: 0, valueNames: { 1: 'Open' } })).toBe('Open');
  });
});

describe('heatmapOption', () => {
  it('puts the shallowest depth on top and scales colours to the readings', () => {
    const option = heatmapOption({
      times: [0, 3_600_000],
      depths: [10, 20],
      cells: [
        [0, 0, 21.4],
        [1, 1, 30.2],
      ],
      unit: '%',
      precision: 1,
      name: 'Soil moisture',
      depthLabel: (d) => `${d} cm`,
      daily: false,
      dark: true,
    }) as { yAxis: { inverse: boolean; data: string[] }; visualMap: { min: number; max: number }; series: { data: number[][] }[] };
    expect(option.yAxis).toMatchObject({ inverse: true, data: ['10 cm', '20 cm'] });
    expect(option.visualMap).toMatchObject({ min: 21, max: 31 });
    expect(option.series[0].data).toEqual([
      [0, 0, 21.4],
      [1, 1, 30.2],
    ]);
  });
});

describe('widened', () => {
  it('keeps a level flickering by 0.01 m on an axis at least 0.2 m tall', () => {
    expect(widened({ min: 3.39, max: 3.4 }, 2)).toEqual([3.29, 3.5]);
  });
  it('leaves a range that is tall enough to the chart', () => {
    expect(widened({ min: -4, max: 6 }, 1)).toBeNull();
  });
});

describe('rain and soil analysis charts', () => {
  type Tip = (p: unknown) => string;

  it('draws the server rain buckets from zero, with the class in the tooltip', () => {
    const option = rainBarsOption({
      bars: [
        { time: 1000, mm: null },
        { time: 2000, mm: 12.3, note: 'Moderate rain' },
      ],
      name: 'Daily rainfall',
      range: { begin: 0, end: 3000 },
      daily: true,
      dark: false,
    }) as { series: Series[]; yAxis: { min: number; max: (e: { min: number; max: number }) => number | null }; tooltip: { formatter: Tip } };
    expect(option.series[0]).toMatchObject({ type: 'bar', data: [[1000, null], [2000, 12.3]] });
    expect(option.yAxis.min).toBe(0);
    expect(option.yAxis.max({ min: 0, max: 0 })).toBe(1); // a dry period keeps a scale
    expect(option.yAxis.max({ min: 0, max: 30 })).toBeNull();
    const tip = option.tooltip.formatter([{ value: [2000, 12.3], axisValue: 2000, marker: '' }]);
    expect(tip).toContain('12.3 mm');
    expect(tip).toContain('Moderate rain');
  });

  it('draws a moisture profile with depth downwards and the wetting front marked', () => {
    const option = profileOption({
      layers: [
        { depth: 10, before: 30, after: 35 },
        { depth: 20, before: 28, after: 33 },
        { depth: 30, before: 25, after: 25.2 },
      ],
      frontDepth: 20,
      labels: { before: 'Before', after: 'After', front: (d) => `Front ${d} cm`, depth: (d) => `${d} cm` },
      dark: false,
    }) as { yAxis: { inverse: boolean; data: string[] }; series: { data: number[]; markLine?: { data: { yAxis: number }[]; label: { formatter: string } } }[] };
    expect(option.yAxis).toMatchObject({ inverse: true, data: ['10 cm', '20 cm', '30 cm'] });
    expect(option.series[0].data).toEqual([30, 28, 25]);
    expect(option.series[1].data).toEqual([35, 33, 25.2]);
    expect(option.series[1].markLine).toMatchObject({ data: [{ yAxis: 1 }], label: { formatter: 'Front 20 cm' } });
  });

  it('puts the root zone between the refill point and field capacity', () => {
    const option = rootZoneOption({
      relative: 52,
      refill: 60,
      labels: { now: '0–25 cm', refill: 'Refill', fieldCapacity: 'FC', dry: 'Dry', available: 'OK', wet: 'Wet' },
      dark: true,
    }) as { series: { data: number[]; itemStyle: { color: string }; markLine: { data: { xAxis: number }[] } }[] };
    expect(option.series[0].data).toEqual([52]);
    expect(option.series[0].itemStyle.color).toBe('#fa8c16'); // below the refill point: needs water
    expect(option.series[0].markLine.data.map((d) => d.xAxis)).toEqual([60, 100]);
  });

  it('plots the lean as [tilt, direction] counter-clockwise from the X axis', () => {
    const option = yawOption({
      points: [
        { time: 1, direction: 118, tilt: 1.98 },
        { time: 2, direction: 122, tilt: 2.01 },
      ],
      labels: { points: 'Reports', latest: 'Latest', direction: 'Direction', tilt: 'Tilt', xAxis: 'X', yAxis: 'Y' },
      dark: false,
    }) as { angleAxis: { startAngle: number; clockwise: boolean }; series: { data: unknown[] }[] };
    expect(option.angleAxis).toMatchObject({ startAngle: 0, clockwise: false });
    expect((option.series[0].data[0] as { value: number[] }).value).toEqual([1.98, 118, 1]);
    expect(option.series[1].data).toEqual([[2.01, 122, 2]]);
  });

  it('steps the root depth through the weeks, leaving gaps where none was found', () => {
    const option = rootDepthHistoryOption({
      points: [
        { time: 1, depth: 20 },
        { time: 2, depth: null },
      ],
      maxDepth: 60,
      name: 'Root depth',
      noneLabel: 'Not found',
      dark: false,
    }) as { yAxis: { inverse: boolean; max: number }; series: Series[] };
    expect(option.yAxis).toMatchObject({ inverse: true, max: 60 });
    expect(option.series[0].data).toEqual([[1, 20], [2, null]]);
  });
});
