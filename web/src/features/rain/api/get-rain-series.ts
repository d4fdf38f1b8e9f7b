import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { RainDim, RainSeries } from '../types';

/** GET /apis/poi/{id}/pluviometer/stats_data: rain per hour, day or month over a period. */
export function getRainSeries(deviceId: number, dim: RainDim, range: Range, signal?: AbortSignal): Promise<RainSeries> {
  return api
    .get<RainSeries>(`/poi/${deviceId}/pluviometer/stats_data`, { params: { dim, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, list: listOf(data.list) }));
}

export function getRainSeriesQueryOptions(deviceId: number, dim: RainDim, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'rain-series', dim, range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getRainSeries(deviceId, dim, range, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useRainSeries(deviceId: number, dim: RainDim, range: Range) {
  return useQuery(getRainSeriesQueryOptions(deviceId, dim, range));
}
