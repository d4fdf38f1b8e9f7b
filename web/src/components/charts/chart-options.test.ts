import { describe, expect, it } from 'vitest';
import { setFarmZone } from '@/lib/farm-time';
import { axisBounds, timeSeriesOption, valueLabel, widened, type Extent, type TimeChartSpec } from './chart-options';

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
    setFarmZone('UTC'); // a farm on UTC: axis values are the instants themselves
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

describe('widened', () => {
  it('keeps a level flickering by 0.01 m on an axis at least 0.2 m tall', () => {
    expect(widened({ min: 3.39, max: 3.4 }, 2)).toEqual([3.29, 3.5]);
  });
  it('leaves a range that is tall enough to the chart', () => {
    expect(widened({ min: -4, max: 6 }, 1)).toBeNull();
  });
});

describe('axisBounds', () => {
  it('keeps a dry rain gauge and an empty trap at 0 and above', () => {
    expect(axisBounds({ min: 0, max: 0 }, 1, 0)).toEqual([0, 2]);
    expect(axisBounds({ min: 0, max: 0 }, 0, 0)).toEqual([0, 20]);
    const rain = timeSeriesOption(spec({ series: [{ key: 'r', name: 'Rain', kind: 'bar', t: [1, 2], v: [0, 0] }], floor: 0 })) as {
      yAxis: { min: (e: Extent) => number; max: (e: Extent) => number };
    };
    expect(rain.yAxis.min({ min: 0, max: 0 })).toBe(0);
    expect(rain.yAxis.max({ min: 0, max: 0 })).toBe(2);
  });

  it('puts both bounds on whole ticks so no label crowds another', () => {
    const bounds = axisBounds({ min: -0.7, max: -0.69 }, 2) ?? [];
    expect(bounds).toEqual([-0.8, -0.55]);
    for (const bound of bounds) expect(Math.abs(Math.round(bound * 20) - bound * 20)).toBeLessThan(1e-9);
    expect(axisBounds({ min: 3.39, max: 3.4 }, 2)).toEqual([3.25, 3.5]);
  });

  it('leaves a tall range and readings far above the floor to the chart', () => {
    expect(axisBounds({ min: -4, max: 6 }, 1, 0)).toBeNull();
    expect(axisBounds({ min: 18.3, max: 18.4 }, 1, -50)).toEqual([17, 19.5]);
  });
});
