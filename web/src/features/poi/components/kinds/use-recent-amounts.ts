import { useMemo } from 'react';
import { useHistory } from '@/lib/telemetry/get-history';
import { DAY } from '@/lib/time-range';
import { recentAmounts, roundAmount, type RecentAmounts } from '../../lib/amounts';
import { farmTime } from '@/lib/farm-time';

/** Whole minutes, so a page re-rendering every second still asks the same question. */
const STEP = 60_000;

export interface Amounts extends RecentAmounts {
  /** Today and the six days before it. */
  lastSevenDays: number | null;
}

/**
 * Amounts (insects, irrigation water) of the last hour, 12 and 24 hours, today and the last seven days.
 * Readings of the last day come raw; seven days come from the daily totals.
 */
export function useRecentAmounts(deviceId: number, param: string, now: number, enabled = true) {
  const end = Math.ceil(now / STEP) * STEP;
  const midnight = farmTime(now).startOf('day').valueOf();
  const raw = useHistory(
    deviceId,
    { begin: Math.min(end - DAY, midnight), end, params: [param], dim: 'raw', points: 10_000 },
    enabled,
  );
  const daily = useHistory(
    deviceId,
    { begin: farmTime(now).startOf('day').subtract(6, 'day').valueOf(), end, params: [param], dim: 'daily' },
    enabled,
  );
  const amounts = useMemo<Amounts | null>(() => {
    if (!raw.data) return null;
    const recent = raw.data.series.find((series) => series.param === param) ?? null;
    const week = daily.data?.series.find((series) => series.param === param);
    return {
      ...recentAmounts(recent ?? { t: [], v: [] }, now),
      lastSevenDays: daily.data ? roundAmount((week?.v ?? []).reduce((sum, value) => sum + value, 0)) : null,
    };
  }, [raw.data, daily.data, param, now]);
  return { amounts };
}
