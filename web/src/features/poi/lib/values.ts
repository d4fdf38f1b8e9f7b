import { MISSING, truncateDecimal } from '@/lib/format';

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
