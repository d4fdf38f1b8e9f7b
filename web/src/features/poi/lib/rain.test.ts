import { describe, expect, it } from 'vitest';
import { bucketSums, recentAmounts } from './amounts';
import { peakWarning, rainBetween, rainClass, warningLevelAt, type RainSeries } from './rain';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = new Date(2026, 5, 15, 14, 0, 0).getTime(); // 15 June, 14:00 local time

/** Readings every `step` minutes over the `hours` before NOW, each of `mm`. */
function steady(hours: number, mm: number, step = 10): RainSeries {
  const t: number[] = [];
  const v: number[] = [];
  for (let at = NOW - hours * HOUR + step * MINUTE; at <= NOW; at += step * MINUTE) {
    t.push(at);
    v.push(mm);
  }
  return { t, v };
}

describe('rainClass', () => {
  it.each([
    [0, 'none'],
    [0.05, 'none'],
    [0.1, 'light'],
    [9.9, 'light'],
    [10, 'moderate'],
    [24.9, 'moderate'],
    [25, 'heavy'],
    [49.9, 'heavy'],
    [50, 'storm'],
    [99.9, 'storm'],
    [100, 'heavyStorm'],
    [249.9, 'heavyStorm'],
    [250, 'severeStorm'],
    [600, 'severeStorm'],
  ])('%s mm in 24 h is %s', (amount, expected) => {
    expect(rainClass(amount, '24h')).toBe(expected);
  });

  it.each([
    [4.9, 'light'],
    [5, 'moderate'],
    [15, 'heavy'],
    [30, 'storm'],
    [70, 'heavyStorm'],
    [140, 'severeStorm'],
  ])('%s mm in 12 h is %s', (amount, expected) => {
    expect(rainClass(amount, '12h')).toBe(expected);
  });

  it.each([
    [2.5, 'light'],
    [2.6, 'moderate'],
    [8, 'moderate'],
    [8.1, 'heavy'],
    [15.9, 'heavy'],
    [16, 'storm'],
    [80, 'storm'],
  ])('%s mm in 1 h is %s', (amount, expected) => {
    expect(rainClass(amount, '1h')).toBe(expected);
  });

  it('is not fooled by binary sums of tenths', () => {
    expect(rainClass(0.1 + 0.2 + 9.7, '24h')).toBe('moderate'); // 9.999999… is 10.0 mm
  });

  it.each([null, undefined, Number.NaN, -1])('has no class for %s', (amount) => {
    expect(rainClass(amount)).toBeNull();
  });
});

describe('accumulations', () => {
  it('counts a reading in the window that ends at it, not the one that starts there', () => {
    const series = { t: [NOW - HOUR, NOW - HOUR + 1, NOW], v: [5, 1, 2] };
    expect(rainBetween(series, NOW - HOUR, NOW)).toBe(3);
  });

  it('sums the last 1, 12 and 24 hours and today', () => {
    // 0.5 mm every 10 minutes for 30 hours: 3 mm an hour.
    const acc = recentAmounts(steady(30, 0.5), NOW);
    expect(acc).toEqual({ lastHour: 3, last12Hours: 36, last24Hours: 72, today: 42 });
  });

  it('keeps tenths exact', () => {
    const acc = recentAmounts(steady(1, 0.1), NOW);
    expect(acc.lastHour).toBe(0.6);
  });

  it('is zero without readings', () => {
    expect(recentAmounts({ t: [], v: [] }, NOW)).toEqual({ lastHour: 0, last12Hours: 0, last24Hours: 0, today: 0 });
  });
});

describe('rainstorm warnings', () => {
  it('has no warning below 50 mm in 12 h', () => {
    const series = steady(12, 49.9 / 72);
    expect(warningLevelAt(series, NOW)).toBe(0);
  });

  it('is blue (01) at 50 mm in 12 h', () => {
    expect(warningLevelAt(steady(12, 50 / 72), NOW)).toBe(1);
  });

  it('is yellow (02) at 50 mm in 6 h', () => {
    expect(warningLevelAt(steady(6, 50 / 36), NOW)).toBe(2);
  });

  it('is orange (03) at 50 mm in 3 h', () => {
    expect(warningLevelAt(steady(3, 50 / 18), NOW)).toBe(3);
  });

  it('is red (04) at 100 mm in 3 h', () => {
    expect(warningLevelAt(steady(3, 100 / 18), NOW)).toBe(4);
    expect(warningLevelAt({ t: [NOW - 3 * HOUR + 1, NOW], v: [60, 40] }, NOW)).toBe(4);
  });

  it('leaves a reading out of the window it ends just before', () => {
    // 100 mm reported exactly 3 hours before NOW fell before the 3-hour window: yellow, not red.
    expect(warningLevelAt({ t: [NOW - 3 * HOUR, NOW], v: [100, 0] }, NOW)).toBe(2);
  });

  it('finds the highest level reached in a history, and when', () => {
    const burst = { t: [NOW - 10 * HOUR, NOW - 9 * HOUR, NOW - 8 * HOUR, NOW], v: [30, 30, 45, 0.5] };
    expect(peakWarning(burst)).toEqual({ level: 4, time: NOW - 8 * HOUR });
    expect(peakWarning({ t: [NOW], v: [0] })).toEqual({ level: 0, time: null });
    expect(peakWarning({ t: [], v: [] })).toEqual({ level: 0, time: null });
  });
});

describe('bucketSums', () => {
  it('puts a reading on the hour into the hour before it', () => {
    const series = { t: [NOW - HOUR + 10 * MINUTE, NOW, NOW + 10 * MINUTE], v: [1, 2, 4] };
    expect(bucketSums(series, HOUR)).toEqual({ t: [NOW - HOUR, NOW], v: [3, 4] });
  });

  it('sums days from local midnight', () => {
    const midnight = new Date(2026, 5, 15).getTime();
    const series = { t: [midnight - HOUR, midnight, midnight + HOUR, midnight + 23 * HOUR], v: [1, 2, 3, 4] };
    expect(bucketSums(series, 24 * HOUR)).toEqual({ t: [midnight - 24 * HOUR, midnight], v: [3, 7] });
  });
});
