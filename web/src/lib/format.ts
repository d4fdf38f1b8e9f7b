import { farmTime } from './farm-time';
import { i18n } from './i18n';

/** Shown wherever a value is missing. */
export const MISSING = '--';

type Timestamp = number | null | undefined;

function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/**
 * Cuts a number to `digits` decimals without rounding (12.349 → "12.34") and drops trailing zeros.
 * Missing or non-numeric values give "--".
 */
export function truncateDecimal(value: number | string | null | undefined, digits = 2): string {
  const number = toNumber(value);
  if (number === null) return MISSING;
  if (Math.abs(number) >= 1e21) return String(number);
  // Ten extra digits absorb binary noise (0.29 is stored as 0.28999…) before the cut.
  const fixed = Math.abs(number).toFixed(digits + 10);
  const [whole, fraction = ''] = fixed.split('.');
  const kept = fraction.slice(0, digits).replace(/0+$/, '');
  const text = kept ? `${whole}.${kept}` : whole;
  const negative = number < 0 && /[1-9]/.test(text);
  return negative ? `-${text}` : text;
}

/** Full date and time on the farm's clock, e.g. 2024-05-10 08:05:09. */
export function formatDateTime(time: Timestamp): string {
  if (time === null || time === undefined || !Number.isFinite(time)) return MISSING;
  return farmTime(time).format('YYYY-MM-DD HH:mm:ss');
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** "just now" under a minute, then minutes, hours, days, months of 30 days, years. */
export function formatRelativeTime(time: Timestamp, now: number = Date.now()): string {
  if (time === null || time === undefined || !Number.isFinite(time)) return MISSING;
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return i18n.t('common:time.justNow');
  if (elapsed < HOUR) return i18n.t('common:time.minutesAgo', { count: Math.floor(elapsed / MINUTE) });
  if (elapsed < DAY) return i18n.t('common:time.hoursAgo', { count: Math.floor(elapsed / HOUR) });
  if (elapsed < MONTH) return i18n.t('common:time.daysAgo', { count: Math.floor(elapsed / DAY) });
  if (elapsed < YEAR) return i18n.t('common:time.monthsAgo', { count: Math.floor(elapsed / MONTH) });
  return i18n.t('common:time.yearsAgo', { count: Math.floor(elapsed / YEAR) });
}

/** A report's time on the farm's clock: HH:mm today, MM.DD HH:mm earlier this year, YYYY.MM.DD before that. */
export function formatReportTime(time: Timestamp, now: number = Date.now()): string {
  if (time === null || time === undefined || !Number.isFinite(time)) return MISSING;
  const at = farmTime(time);
  const today = farmTime(now);
  if (at.isSame(today, 'day')) return at.format('HH:mm');
  if (at.isSame(today, 'year')) return at.format('MM.DD HH:mm');
  return at.format('YYYY.MM.DD');
}

/** The first character of a name, for an avatar. */
export function initialOf(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? '';
}

/** Values show at most two decimals, cut rather than rounded (SPEC.md §5). */
export const MAX_DECIMALS = 2;

/** A reading with the catalogue's precision, truncated; '--' when missing. */
export function formatValue(value: number | null | undefined, precision = MAX_DECIMALS): string {
  return truncateDecimal(value, Math.max(0, Math.min(precision, MAX_DECIMALS)));
}

/** A reading followed by its unit, e.g. "23.5 %"; just '--' when missing. */
export function formatWithUnit(value: number | null | undefined, unit: string, precision = MAX_DECIMALS): string {
  const text = formatValue(value, precision);
  if (text === MISSING || !unit) return text;
  return `${text} ${unit}`;
}
