import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { IdRange } from '../types';

/** GET /apis/poi/{id}/pluviometer/i-d/range: the rain events of a period against the landslide intensity-duration threshold. */
export function getIdRange(deviceId: number, range: Range, signal?: AbortSignal): Promise<IdRange> {
  return api
    .get<IdRange>(`/poi/${deviceId}/pluviometer/i-d/range`, { params: rangeParams(range), signal })
    .then((data) => ({ ...data, curve: listOf(data.curve), events: listOf(data.events) }));
}

export function getIdRangeQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'i-d-range', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getIdRange(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useIdRange(deviceId: number, range: Range) {
  return useQuery(getIdRangeQueryOptions(deviceId, range));
}
