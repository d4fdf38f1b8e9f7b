import { describe, expect, it } from 'vitest';
import { heatmapOption, profileOption, rootDepthHistoryOption, rootZoneOption } from './chart-options';

type Series = { type: string; step?: string; data: number[][]; markLine?: { data: { yAxis: number }[] } };

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

describe('soil analysis charts', () => {
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
