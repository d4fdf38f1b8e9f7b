import dayjs from 'dayjs';
import { farmOffsetMinutes } from './farm-time';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type RangePreset = '24h' | '7d' | '30d';
export const RANGE_PRESETS: readonly RangePreset[] = ['24h', '7d', '30d'];

const PRESET_LENGTH: Record<RangePreset, number> = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

export interface TimeRange {
  begin: number;
  end: number;
}

/** The preset's range ending at `now`, cut to the minute so repeated renders ask the same thing. */
export function presetRange(preset: RangePreset, now: number = Date.now()): TimeRange {
  const end = Math.ceil(now / 60_000) * 60_000;
  return { begin: end - PRESET_LENGTH[preset], end };
}

/** Data downloads may span at most one year (SPEC.md §5): the same date a year later at most. */
export function exceedsOneYear(begin: number, end: number): boolean {
  return dayjs(end).isAfter(dayjs(begin).add(1, 'year'));
}

/** Bucket sizes a depth × time view may use, finest first. */
const BUCKETS = [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY];

/** The finest bucket that splits the range into at most `columns` buckets. */
export function bucketSize(range: TimeRange, columns = 180): number {
  const span = Math.max(range.end - range.begin, 0);
  return BUCKETS.find((size) => span / size <= columns) ?? BUCKETS[BUCKETS.length - 1];
}

/** Start of the bucket holding `time` on the farm's clock (hours, days: as on its wall clock). */
export function bucketStart(time: number, size: number): number {
  const offset = farmOffsetMinutes(time) * 60_000;
  return Math.floor((time + offset) / size) * size - offset;
}

/** Averages readings into farm-clock buckets of `size` ms, keyed by each bucket's start. */
export function bucketAverages(t: readonly number[], v: readonly number[], size: number): Map<number, number> {
  const sums = new Map<number, { sum: number; count: number }>();
  for (let index = 0; index < t.length; index += 1) {
    const start = bucketStart(t[index], size);
    const entry = sums.get(start);
    if (entry) {
      entry.sum += v[index];
      entry.count += 1;
    } else {
      sums.set(start, { sum: v[index], count: 1 });
    }
  }
  return new Map([...sums].map(([start, { sum, count }]) => [start, sum / count]));
}

/** A period either end of which may be left to the server (its default span ends now). */
export interface Range {
  begin?: number;
  end?: number;
}

/** The query parameters of a Range: only the ends it has. */
export function rangeParams(range: Range): Record<string, number> {
  const params: Record<string, number> = {};
  if (range.begin !== undefined) params.begin = range.begin;
  if (range.end !== undefined) params.end = range.end;
  return params;
}
