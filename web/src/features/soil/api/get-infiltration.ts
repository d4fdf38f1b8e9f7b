import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { Infiltration } from '../types';

/** GET /apis/poi/shang/infiltration: the moisture profile before and after an event. */
export function getInfiltration(deviceId: number, range: Range, signal?: AbortSignal): Promise<Infiltration> {
  return api
    .get<Infiltration>('/poi/shang/infiltration', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, layers: listOf(data.layers), pulse: data.pulse ? { ...data.pulse, layers: listOf(data.pulse.layers) } : null }));
}

export function getInfiltrationQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'infiltration', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getInfiltration(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useInfiltration(deviceId: number, range: Range, enabled = true) {
  return useQuery({ ...getInfiltrationQueryOptions(deviceId, range), enabled });
}
