import { MISSING, truncateDecimal } from '@/lib/format';

/** A response time: milliseconds under a second, else seconds. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return MISSING;
  if (ms < 1) return '< 1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${truncateDecimal(ms / 1000, 2)} s`;
}

/** A success rate of 0–1 as a percentage with one decimal, cut rather than rounded (99.96 % is not 100 %). */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return MISSING;
  return `${truncateDecimal(rate * 100, 1)}%`;
}

/** How a success rate reads: all good, some failing, mostly failing. */
export function rateTone(rate: number | null | undefined): 'success' | 'warning' | 'danger' | undefined {
  if (rate === null || rate === undefined) return undefined;
  if (rate >= 0.99) return 'success';
  if (rate >= 0.9) return 'warning';
  return 'danger';
}

/** Pretty JSON for display; text that is not JSON is shown as it is. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? '';
}
