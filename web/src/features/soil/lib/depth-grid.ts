import { bucketAverages } from '@/lib/time-range';

export interface DepthGrid {
  /** Bucket starts, oldest first. */
  times: number[];
  /** [time index, depth index, mean value] for every bucket with readings. */
  cells: [number, number, number][];
}

/**
 * A depth × time grid: each depth's readings averaged into local-time buckets of `size` ms. Depths
 * keep the order given; buckets without any reading are left out of the time axis.
 */
export function depthTimeGrid(
  series: readonly { node: number; t: readonly number[]; v: readonly number[] }[],
  depths: readonly number[],
  size: number,
): DepthGrid {
  const perDepth = depths.map((depth) => {
    const found = series.find((s) => s.node === depth);
    return found ? bucketAverages(found.t, found.v, size) : new Map<number, number>();
  });
  const times = [...new Set(perDepth.flatMap((buckets) => [...buckets.keys()]))].sort((a, b) => a - b);
  const column = new Map(times.map((time, index) => [time, index]));
  const cells: [number, number, number][] = [];
  perDepth.forEach((buckets, depthIndex) => {
    for (const [time, value] of buckets) cells.push([column.get(time)!, depthIndex, Math.round(value * 100) / 100]);
  });
  return { times, cells };
}
