import { describe, expect, it } from 'vitest';
import { bucketAverages, bucketSize, DAY, exceedsOneYear, HOUR, presetRange } from './time-range';

describe('presetRange', () => {
  it('ends at the next whole minute and spans the preset', () => {
    const now = new Date(2026, 0, 10, 8, 30, 20).getTime();
    const end = new Date(2026, 0, 10, 8, 31).getTime();
    expect(presetRange('24h', now)).toEqual({ begin: end - DAY, end });
    expect(presetRange('7d', now)).toEqual({ begin: end - 7 * DAY, end });
    expect(presetRange('30d', now)).toEqual({ begin: end - 30 * DAY, end });
  });
});

describe('exceedsOneYear', () => {
  it('allows up to the same moment a year later, leap days included', () => {
    const begin = new Date(2024, 0, 1).getTime();
    expect(exceedsOneYear(begin, new Date(2025, 0, 1).getTime())).toBe(false);
    expect(exceedsOneYear(begin, new Date(2025, 0, 1).getTime() + 1)).toBe(true);
    expect(exceedsOneYear(new Date(2024, 1, 29).getTime(), new Date(2025, 1, 28).getTime())).toBe(false);
  });
});

describe('bucketSize', () => {
  it('picks the finest bucket that keeps the columns in bounds', () => {
    expect(bucketSize({ begin: 0, end: DAY })).toBe(HOUR);
    expect(bucketSize({ begin: 0, end: 7 * DAY })).toBe(HOUR);
    expect(bucketSize({ begin: 0, end: 30 * DAY })).toBe(6 * HOUR);
    expect(bucketSize({ begin: 0, end: 365 * DAY })).toBe(7 * DAY);
    expect(bucketSize({ begin: 0, end: 7 * DAY }, 60)).toBe(3 * HOUR);
  });
});

describe('bucketAverages', () => {
  it('averages the readings of each local hour', () => {
    const start = new Date(2026, 0, 10, 8).getTime();
    const result = bucketAverages([start, start + 20 * 60_000, start + HOUR], [10, 20, 5], HOUR);
    expect([...result]).toEqual([
      [start, 15],
      [start + HOUR, 5],
    ]);
  });
});
