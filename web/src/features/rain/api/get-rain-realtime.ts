import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { RainRealtime } from '../types';
import { RAIN_REFRESH_MS } from './refresh';

/** GET /apis/poi/{id}/pluviometer/realtime: the reports, running total and hourly sums of the last `hours` hours. */
export function getRainRealtime(deviceId: number, hours = 24, signal?: AbortSignal): Promise<RainRealtime> {
  return api
    .get<RainRealtime>(`/poi/${deviceId}/pluviometer/realtime`, { params: { hours }, signal })
    .then((data) => ({ ...data, points: listOf(data.points), cumulative: listOf(data.cumulative), hourly: listOf(data.hourly) }));
}

export function getRainRealtimeQueryOptions(deviceId: number, hours = 24) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'rain-realtime', hours),
    queryFn: ({ signal }) => getRainRealtime(deviceId, hours, signal),
    refetchInterval: RAIN_REFRESH_MS,
  });
}

export function useRainRealtime(deviceId: number, hours = 24) {
  return useQuery(getRainRealtimeQueryOptions(deviceId, hours));
}
