/**
 * Display helpers for the rain classes and rainstorm warnings the server computes
 * (docs/analyses.md, Rain gauge): message keys, the signal colours and which buckets to ask for.
 * No thresholds here.
 */
import { DAY } from './time-range';

/** SPEC.md §9 rain classes, lightest first, as message keys; 'none' is a dry window. */
export const RAIN_CLASSES = ['none', 'light', 'moderate', 'heavy', 'storm', 'heavyStorm', 'severeStorm'] as const;
export type RainClass = (typeof RAIN_CLASSES)[number];

/** The message key of a class as the server names it ('heavy storm' → heavyStorm); null when not graded. */
export function rainClassKey(name: string | null | undefined): RainClass | null {
  if (!name) return null;
  const key = name.replace(/ (\w)/g, (_, letter: string) => letter.toUpperCase());
  return (RAIN_CLASSES as readonly string[]).includes(key) ? (key as RainClass) : null;
}

/** Rainstorm warning levels: 0 none, 1–4 blue, yellow, orange, red (codes 01–04). */
export type WarningLevel = 0 | 1 | 2 | 3 | 4;

/** A level the server sent, kept within 0–4; 0 when missing. */
export function warningLevel(warning: { level: number } | null | undefined): WarningLevel {
  const level = Math.round(warning?.level ?? 0);
  return Math.max(0, Math.min(4, Number.isFinite(level) ? level : 0)) as WarningLevel;
}

/** The warning signal colours. */
export const WARNING_HEX: Record<Exclude<WarningLevel, 0>, string> = {
  1: '#1677ff',
  2: '#fadb14',
  3: '#fa8c16',
  4: '#f5222d',
};

/** Text on a signal colour: dark on yellow, white on the others. */
export const warningTextColor = (level: Exclude<WarningLevel, 0>) => (level === 2 ? 'rgba(0,0,0,0.88)' : '#fff');

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
