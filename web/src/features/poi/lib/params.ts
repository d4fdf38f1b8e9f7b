import type { ParamMeta } from '@/lib/telemetry/types';

/** Battery and signal show in the page header, not among the readings. */
export const HEADER_PARAMS = new Set(['battery', 'signal']);

/** Amounts since the previous report (rain, insects, water): a period is their sum. */
export function isAmount(param: Pick<ParamMeta, 'daily'>): boolean {
  return param.daily[0] === 'sum';
}

/** Parameters whose value is a state (0/1) rather than a measurement. */
export const STATE_PARAMS = new Set(['valveState']);

/** Signal strength as 0–4 bars: every 10 dBm below −80 dBm takes one away. */
export function signalBars(dbm: number | null | undefined): number | null {
  if (dbm === null || dbm === undefined || !Number.isFinite(dbm)) return null;
  if (dbm >= -80) return 4;
  if (dbm >= -90) return 3;
  if (dbm >= -100) return 2;
  if (dbm >= -110) return 1;
  return 0;
}
