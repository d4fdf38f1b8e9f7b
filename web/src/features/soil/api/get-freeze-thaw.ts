import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { FreezeThaw } from '../types';

/** GET /apis/poi/shang/freezeThaw: freezing and thawing per layer. */
export function getFreezeThaw(deviceId: number, range: Range, signal?: AbortSignal): Promise<FreezeThaw> {
  return api
    .get<FreezeThaw>('/poi/shang/freezeThaw', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({
      ...data,
      dates: listOf(data.dates),
      layers: listOf(data.layers).map((layer) => ({ ...layer, events: listOf(layer.events), dates: listOf(layer.dates) })),
    }));
}

export function getFreezeThawQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'freeze-thaw', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getFreezeThaw(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFreezeThaw(deviceId: number, range: Range) {
  return useQuery(getFreezeThawQueryOptions(deviceId, range));
}
