import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { RainLatest } from '../types';
import { RAIN_REFRESH_MS } from './refresh';

/** GET /apis/poi/{id}/pluviometer/latest: the newest report with the last hour, day and today. */
export function getRainLatest(deviceId: number, signal?: AbortSignal): Promise<RainLatest> {
  return api.get<RainLatest>(`/poi/${deviceId}/pluviometer/latest`, { signal });
}

export function getRainLatestQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'rain-latest'),
    queryFn: ({ signal }) => getRainLatest(deviceId, signal),
    refetchInterval: RAIN_REFRESH_MS,
  });
}

export function useRainLatest(deviceId: number) {
  return useQuery(getRainLatestQueryOptions(deviceId));
}
