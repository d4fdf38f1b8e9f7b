import { describe, expect, it } from 'vitest';
import { changeOver, largestMagnitude, ratePerHour, smoothedRatePerHour } from './tilt';

const HOUR = 3_600_000;

describe('ratePerHour', () => {
  it('divides each change by the hours between readings', () => {
    const series = { t: [0, HOUR, 3 * HOUR, 3.5 * HOUR], v: [1, 1.5, 0.5, 1] };
    expect(ratePerHour(series)).toEqual({ t: [HOUR, 3 * HOUR, 3.5 * HOUR], v: [0.5, -0.5, 1] });
  });

  it('skips readings at the same time and needs two readings', () => {
    expect(ratePerHour({ t: [0, 0, HOUR], v: [1, 2, 4] })).toEqual({ t: [HOUR], v: [2] });
    expect(ratePerHour({ t: [0], v: [1] })).toEqual({ t: [], v: [] });
  });
});

describe('smoothedRatePerHour', () => {
  it('compares hourly means, so minute-to-minute noise does not look like movement', () => {
    const start = new Date(2026, 4, 1, 8).getTime();
    const minute = 60_000;
    // Two hours of readings jittering ±0.01° around 1.00°, then an hour around 1.10°.
    const t = [start, start + 20 * minute, start + 40 * minute, start + HOUR, start + HOUR + 30 * minute, start + 2 * HOUR];
    const v = [1.01, 0.99, 1.0, 0.99, 1.01, 1.1];
    const rate = smoothedRatePerHour({ t, v });
    expect(rate.t).toEqual([start + 1.5 * HOUR, start + 2.5 * HOUR]);
    expect(rate.v[0]).toBeCloseTo(0);
    expect(rate.v[1]).toBeCloseTo(0.1);
    expect(Math.max(...ratePerHour({ t, v }).v.map(Math.abs))).toBeGreaterThan(0.05); // raw rates are noisy
  });
});

describe('changeOver', () => {
  it('compares the newest reading with the one at the window start', () => {
    const series = { t: [0, 12 * HOUR, 24 * HOUR, 36 * HOUR], v: [1, 1.2, 1.5, 2.1] };
    expect(changeOver(series, 24)).toEqual({ change: expect.closeTo(0.9), perDay: expect.closeTo(0.9), hours: 24 });
  });

  it('uses the oldest reading when the history is shorter than the window', () => {
    const series = { t: [0, 6 * HOUR], v: [2, 2.5] };
    expect(changeOver(series, 24)).toEqual({ change: 0.5, perDay: 2, hours: 6 });
  });

  it('needs two readings', () => {
    expect(changeOver({ t: [0], v: [1] }, 24)).toBeNull();
    expect(changeOver({ t: [], v: [] }, 24)).toBeNull();
  });
});

describe('largestMagnitude', () => {
  it('keeps the sign of the largest swing', () => {
    expect(largestMagnitude([0.1, -0.4, 0.3])).toBe(-0.4);
    expect(largestMagnitude([])).toBeNull();
  });
});
