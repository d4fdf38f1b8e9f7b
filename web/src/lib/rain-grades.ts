/**
 * The rain classes and warning signals the server grades readings with (docs/analyses.md), as the
 * rain gauge and the weather station show them: message keys and signal colours. No thresholds here.
 */

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

/** The warning signal colours, in shades that carry their text at 4.5:1 or more. */
export const WARNING_HEX: Record<Exclude<WarningLevel, 0>, string> = {
  1: '#0958d9',
  2: '#fadb14',
  3: '#fa8c16',
  4: '#cf1322',
};

/** Text on a signal colour: dark on yellow and orange, white on blue and red. */
export const warningTextColor = (level: Exclude<WarningLevel, 0>) => (level === 2 || level === 3 ? 'rgba(0,0,0,0.88)' : '#fff');

/** Rain classes as the server names them (GB/T 28592-2012, CMA hourly grades); '' when not graded. */
export type ServerRainClass = '' | 'none' | 'light' | 'moderate' | 'heavy' | 'storm' | 'heavy storm' | 'severe storm';

/** A warning signal as the server sends it: its level (0–4), code and colour. */
export interface Warning {
  level: number;
  code: string;
  color: 'none' | 'blue' | 'yellow' | 'orange' | 'red';
}
