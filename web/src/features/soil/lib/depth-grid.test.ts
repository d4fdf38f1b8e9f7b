import { describe, expect, it } from 'vitest';
import { HOUR } from '@/lib/time-range';
import { depthTimeGrid } from './depth-grid';

describe('depthTimeGrid', () => {
  const start = new Date(2026, 3, 1, 6).getTime();

  it('averages each depth per bucket and lays depths out in the given order', () => {
    const series = [
      { node: 20, t: [start, start + HOUR], v: [30, 31] },
      { node: 10, t: [start, start + 30 * 60_000, start + HOUR], v: [20, 21, 22] },
    ];
    expect(depthTimeGrid(series, [10, 20], HOUR)).toEqual({
      times: [start, start + HOUR],
      cells: [
        [0, 0, 20.5],
        [1, 0, 22],
        [0, 1, 30],
        [1, 1, 31],
      ],
    });
  });

  it('leaves gaps where a depth has no reading and skips depths without a series', () => {
    const series = [{ node: 10, t: [start + 2 * HOUR], v: [25] }];
    expect(depthTimeGrid(series, [10, 20], HOUR)).toEqual({ times: [start + 2 * HOUR], cells: [[0, 0, 25]] });
    expect(depthTimeGrid([], [10], HOUR)).toEqual({ times: [], cells: [] });
  });
});
