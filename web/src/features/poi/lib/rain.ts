/**
 * Rain classes and the 01–04 rainstorm warning levels. Rainfall readings are amounts since the
 * previous report (see amounts.ts): a window (from, to] holds the readings with from < t ≤ to.
 */
import { amountIndex, type AmountSeries } from './amounts';
import { HOUR } from './time-range';

/** SPEC.md §9 rain classes, lightest first; 'none' is a dry window. */
export const RAIN_CLASSES = ['none', 'light', 'moderate', 'heavy', 'storm', 'heavyStorm', 'severeStorm'] as const;
export type RainClass = (typeof RAIN_CLASSES)[number];

export type RainWindow = '1h' | '12h' | '24h';

/**
 * Lower bounds in mm of light … severe storm per window (GB/T 28592-2012). An hour has no
 * classes above storm.
 */
export const RAIN_CLASS_BOUNDS: Record<RainWindow, readonly number[]> = {
  '1h': [0.1, 2.6, 8.1, 16],
  '12h': [0.1, 5, 15, 30, 70, 140],
  '24h': [0.1, 10, 25, 50, 100, 250],
};

/** The class of an amount of rain fallen in the window; null when the amount is missing. */
export function rainClass(amount: number | null | undefined, window: RainWindow = '24h'): RainClass | null {
  if (amount === null || amount === undefined || !Number.isFinite(amount) || amount < 0) return null;
  let index = 0;
  for (const bound of RAIN_CLASS_BOUNDS[window]) {
    // Sums of tenths carry binary noise (9.999… for 10.0 mm): allow for it at the bound.
    if (amount >= bound - 1e-6) index += 1;
    else break;
  }
  return RAIN_CLASSES[index];
}

export type RainSeries = AmountSeries;

/** The rain fallen in (from, to]. */
export function rainBetween(series: RainSeries, from: number, to: number): number {
  return amountIndex(series)(from, to);
}

/**
 * Rainstorm warning levels 01–04 (blue, yellow, orange, red) by the national criteria on rain
 * observed: blue ≥ 50 mm in 12 h, yellow ≥ 50 mm in 6 h, orange ≥ 50 mm in 3 h, red ≥ 100 mm in
 * 3 h. 0 is no warning.
 */
export type WarningLevel = 0 | 1 | 2 | 3 | 4;
export const WARNING_COLORS = ['none', 'blue', 'yellow', 'orange', 'red'] as const;

export const WARNING_CRITERIA: readonly { level: Exclude<WarningLevel, 0>; hours: number; mm: number }[] = [
  { level: 4, hours: 3, mm: 100 },
  { level: 3, hours: 3, mm: 50 },
  { level: 2, hours: 6, mm: 50 },
  { level: 1, hours: 12, mm: 50 },
];

function levelAt(between: (from: number, to: number) => number, at: number): WarningLevel {
  for (const { level, hours, mm } of WARNING_CRITERIA) {
    if (between(at - hours * HOUR, at) >= mm) return level;
  }
  return 0;
}

/** The warning level met by the rain of the windows ending at `at`. */
export function warningLevelAt(series: RainSeries, at: number): WarningLevel {
  return levelAt(amountIndex(series), at);
}

export interface WarningPeak {
  level: WarningLevel;
  /** When the highest level was first reached; null without a warning. */
  time: number | null;
}

/**
 * The highest warning level reached at any report in the series. A window's total only grows at a
 * report, so looking at each report's time finds every peak.
 */
export function peakWarning(series: RainSeries): WarningPeak {
  const between = amountIndex(series);
  let peak: WarningPeak = { level: 0, time: null };
  for (let index = 0; index < series.t.length; index += 1) {
    if (series.v[index] <= 0) continue;
    const level = levelAt(between, series.t[index]);
    if (level > peak.level) peak = { level, time: series.t[index] };
    if (level === 4) break;
  }
  return peak;
}
