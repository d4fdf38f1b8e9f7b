/** Which rain buckets and warning days the rain gauge's views ask the server for. */
import { DAY } from '@/lib/time-range';

/** Whether a warning spell [start, end] overlaps the period [begin, end]. */
export function overlaps(spell: { start: number; end: number }, period: { begin: number; end: number }): boolean {
  return spell.start <= period.end && spell.end >= period.begin;
}

/** The server keeps warning spells for the last 90 days (early-warning ?days=, 1–90). */
const WARNING_DAYS_MAX = 90;

/** Rain buckets for a period: hours up to a week, days beyond or when daily values are chosen. */
export function rainDimFor(range: { begin: number; end: number }, dim: 'raw' | 'daily'): 'hour' | 'day' {
  return dim === 'daily' || range.end - range.begin > 7 * DAY ? 'day' : 'hour';
}

/** The days of warning spells to ask for so they reach back to `begin`; null when it is older than the server keeps. */
export function warningDaysFor(begin: number, now: number = Date.now()): number | null {
  const days = Math.max(1, Math.ceil((now - begin) / DAY));
  return days <= WARNING_DAYS_MAX ? days : null;
}
