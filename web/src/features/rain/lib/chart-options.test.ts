import { describe, expect, it } from 'vitest';
import { rainBarsOption } from './chart-options';

type Series = { type: string; step?: string; data: number[][]; markLine?: { data: { yAxis: number }[] } };

describe('rain charts', () => {
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

});
