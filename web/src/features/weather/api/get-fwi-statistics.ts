import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { FwiStatistics } from '../types';

/** GET /apis/qi/fwi/statistics: the fire weather index of the season: days per danger level, latest and highest. */
export function getFwiStatistics(deviceId: number, signal?: AbortSignal): Promise<FwiStatistics> {
  return api
    .get<FwiStatistics>('/qi/fwi/statistics', { params: { id: deviceId }, signal })
    .then((data) => ({ ...data, levels: listOf(data.levels) }));
}

export function getFwiStatisticsQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'fwi-statistics'),
    queryFn: ({ signal }) => getFwiStatistics(deviceId, signal),
  });
}

export function useFwiStatistics(deviceId: number) {
  return useQuery(getFwiStatisticsQueryOptions(deviceId));
}
