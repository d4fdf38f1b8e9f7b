import { describe, expect, it } from 'vitest';
import { yawOption } from './chart-options';

describe('tilt chart', () => {
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

});
