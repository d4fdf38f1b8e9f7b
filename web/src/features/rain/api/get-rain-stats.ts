import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { RainStats } from '../types';
import { RAIN_REFRESH_MS } from './refresh';

/** GET /apis/poi/{id}/pluviometer/stats: rain totals from the last hour to the year. */
export function getRainStats(deviceId: number, signal?: AbortSignal): Promise<RainStats> {
  return api.get<RainStats>(`/poi/${deviceId}/pluviometer/stats`, { signal });
}

export function getRainStatsQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'rain-stats'),
    queryFn: ({ signal }) => getRainStats(deviceId, signal),
    refetchInterval: RAIN_REFRESH_MS,
  });
}

export function useRainStats(deviceId: number) {
  return useQuery(getRainStatsQueryOptions(deviceId));
}
