/** Landslide tilt: how fast the angle changes. */
import { bucketAverages, HOUR } from '@/lib/time-range';

export interface TimeSeries {
  t: readonly number[];
  v: readonly number[];
}

/**
 * The rate of change between consecutive readings in units per hour, stamped at the later reading.
 * Readings at the same time are skipped.
 */
export function ratePerHour(series: TimeSeries): { t: number[]; v: number[] } {
  const t: number[] = [];
  const v: number[] = [];
  for (let index = 1; index < series.t.length; index += 1) {
    const elapsed = series.t[index] - series.t[index - 1];
    if (elapsed <= 0) continue;
    t.push(series.t[index]);
    v.push(((series.v[index] - series.v[index - 1]) * HOUR) / elapsed);
  }
  return { t, v };
}

/**
 * The rate of change per hour between the means of consecutive local-time buckets of `size` ms.
 * Readings minutes apart differ by little more than sensor noise; averaging over an hour or more
 * first shows how the slope actually moves.
 */
export function smoothedRatePerHour(series: TimeSeries, size: number = HOUR): { t: number[]; v: number[] } {
  const means = bucketAverages(series.t, series.v, size);
  const t = [...means.keys()].sort((a, b) => a - b);
  return ratePerHour({ t: t.map((start) => start + size / 2), v: t.map((start) => means.get(start)!) });
}

export interface TiltChange {
  /** Latest reading minus the reading at or just before the window's start. */
  change: number;
  /** The change spread over the hours actually covered, per day. */
  perDay: number;
  /** The hours between the two readings compared. */
  hours: number;
}

/**
 * The change over the last `hours` up to the newest reading, compared with the newest reading at
 * or before the window's start (or the oldest one, when the history is shorter). Null with fewer
 * than two readings.
 */
export function changeOver(series: TimeSeries, hours: number): TiltChange | null {
  const count = series.t.length;
  if (count < 2) return null;
  const end = series.t[count - 1];
  const start = end - hours * HOUR;
  let from = 0;
  for (let index = 0; index < count - 1; index += 1) {
    if (series.t[index] <= start) from = index;
    else break;
  }
  const covered = (end - series.t[from]) / HOUR;
  if (covered <= 0) return null;
  const change = series.v[count - 1] - series.v[from];
  return { change, perDay: (change / covered) * 24, hours: covered };
}

/** The largest absolute value, keeping its sign; null for an empty list. */
export function largestMagnitude(values: readonly number[]): number | null {
  let best: number | null = null;
  for (const value of values) {
    if (best === null || Math.abs(value) > Math.abs(best)) best = value;
  }
  return best;
}
