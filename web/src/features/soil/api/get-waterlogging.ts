import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { Waterlogging } from '../types';

/** GET /apis/poi/shang/waterlogging: the periods each layer stayed at or above saturation. */
export function getWaterlogging(deviceId: number, range: Range, signal?: AbortSignal): Promise<Waterlogging> {
  return api
    .get<Waterlogging>('/poi/shang/waterlogging', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, layers: listOf(data.layers).map((layer) => ({ ...layer, periods: listOf(layer.periods) })) }));
}

export function getWaterloggingQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'waterlogging', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getWaterlogging(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useWaterlogging(deviceId: number, range: Range) {
  return useQuery(getWaterloggingQueryOptions(deviceId, range));
}
