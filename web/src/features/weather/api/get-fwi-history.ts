import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { FwiHistory } from '../types';

/** GET /apis/qi/fwi/history: the fire weather index day by day. */
export function getFwiHistory(deviceId: number, signal?: AbortSignal): Promise<FwiHistory> {
  return api
    .get<FwiHistory>('/qi/fwi/history', { params: { id: deviceId }, signal })
    .then((data) => ({ ...data, days: listOf(data.days) }));
}

export function getFwiHistoryQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'fwi-history'),
    queryFn: ({ signal }) => getFwiHistory(deviceId, signal),
  });
}

export function useFwiHistory(deviceId: number) {
  return useQuery(getFwiHistoryQueryOptions(deviceId));
}
