/**
 * Amounts reported since the previous report: insects caught, irrigation water. A reading at
 * time t covers the moments just before t, so a window (from, to] holds the readings with
 * from < t ≤ to, and a period's amount is their sum.
 */
import { HOUR } from '@/lib/time-range';
import { farmTime } from '@/lib/farm-time';

export interface AmountSeries {
  /** Ascending. */
  t: readonly number[];
  v: readonly number[];
}

/** Sums of tenths drift (0.1 + 0.2); keep what a gauge can resolve. */
export function roundAmount(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The number of times ≤ time in an ascending list. */
function countUpTo(times: readonly number[], time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle] <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Answers "how much in (from, to]" in logarithmic time. */
export function amountIndex(series: AmountSeries): (from: number, to: number) => number {
  const prefix = [0];
  for (const value of series.v) prefix.push(prefix[prefix.length - 1] + value);
  return (from, to) => {
    if (to <= from) return 0;
    return roundAmount(prefix[countUpTo(series.t, to)] - prefix[countUpTo(series.t, from)]);
  };
}

export interface RecentAmounts {
  lastHour: number;
  last12Hours: number;
  last24Hours: number;
  today: number;
}

/** The amounts of the last 1, 12 and 24 hours and since the farm's midnight, up to `now`. */
export function recentAmounts(series: AmountSeries, now: number): RecentAmounts {
  const between = amountIndex(series);
  const midnight = farmTime(now).startOf('day').valueOf();
  return {
    lastHour: between(now - HOUR, now),
    last12Hours: between(now - 12 * HOUR, now),
    last24Hours: between(now - 24 * HOUR, now),
    // A reading at midnight itself covers the last minutes of yesterday.
    today: between(midnight, now),
  };
}
