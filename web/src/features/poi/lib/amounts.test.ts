import { describe, expect, it } from 'vitest';
import { amountIndex, recentAmounts, type AmountSeries } from './amounts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = new Date(2026, 5, 15, 14, 0, 0).getTime(); // 15 June, 14:00 local time

/** Readings every `step` minutes over the `hours` before NOW, each of `amount`. */
function steady(hours: number, amount: number, step = 10): AmountSeries {
  const t: number[] = [];
  const v: number[] = [];
  for (let at = NOW - hours * HOUR + step * MINUTE; at <= NOW; at += step * MINUTE) {
    t.push(at);
    v.push(amount);
  }
  return { t, v };
}

describe('amounts since the previous report (insects, irrigation water)', () => {
  it('counts a reading in the window that ends at it, not the one that starts there', () => {
    const series = { t: [NOW - HOUR, NOW - HOUR + 1, NOW], v: [5, 1, 2] };
    expect(amountIndex(series)(NOW - HOUR, NOW)).toBe(3);
  });

  it('sums the last 1, 12 and 24 hours and today', () => {
    // 0.5 every 10 minutes for 30 hours: 3 an hour.
    const acc = recentAmounts(steady(30, 0.5), NOW);
    expect(acc).toEqual({ lastHour: 3, last12Hours: 36, last24Hours: 72, today: 42 });
  });

  it('keeps tenths exact', () => {
    expect(recentAmounts(steady(1, 0.1), NOW).lastHour).toBe(0.6);
  });

  it('is zero without readings', () => {
    expect(recentAmounts({ t: [], v: [] }, NOW)).toEqual({ lastHour: 0, last12Hours: 0, last24Hours: 0, today: 0 });
  });
});
