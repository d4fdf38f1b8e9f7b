import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { TiltYaw } from '../types';

/** GET /apis/poi/tilt/yaw: the direction and size of the lean at each report. */
export function getTiltYaw(deviceId: number, range: Range, signal?: AbortSignal): Promise<TiltYaw> {
  return api
    .get<TiltYaw>('/poi/tilt/yaw', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, points: listOf(data.points) }));
}

export function getTiltYawQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'tilt-yaw', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getTiltYaw(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTiltYaw(deviceId: number, range: Range) {
  return useQuery(getTiltYawQueryOptions(deviceId, range));
}
