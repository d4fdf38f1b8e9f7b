import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { EarlyWarning } from '../types';
import { RAIN_REFRESH_MS } from './refresh';

/** GET /apis/poi/{id}/pluviometer/early-warning: the rainstorm signal now, its criteria and the episodes of the last `days` days. */
export function getEarlyWarning(deviceId: number, days = 7, signal?: AbortSignal): Promise<EarlyWarning> {
  return api
    .get<EarlyWarning>(`/poi/${deviceId}/pluviometer/early-warning`, { params: { days }, signal })
    .then((data) => ({ ...data, criteria: listOf(data.criteria), episodes: listOf(data.episodes) }));
}

export function getEarlyWarningQueryOptions(deviceId: number, days = 7) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'early-warning', days),
    queryFn: ({ signal }) => getEarlyWarning(deviceId, days, signal),
    refetchInterval: RAIN_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useEarlyWarning(deviceId: number, days = 7, enabled = true) {
  return useQuery({ ...getEarlyWarningQueryOptions(deviceId, days), enabled });
}
