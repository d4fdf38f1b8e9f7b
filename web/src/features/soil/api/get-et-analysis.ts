import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { EtAnalysis } from '../types';

/** GET /apis/poi/shang/etc_et0_kc: daily ET0, Kc and ETc, observed and forecast. */
export function getEtAnalysis(deviceId: number, range: Range, signal?: AbortSignal): Promise<EtAnalysis> {
  return api
    .get<EtAnalysis>('/poi/shang/etc_et0_kc', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, days: listOf(data.days), forecast: data.forecast ? { ...data.forecast, days: listOf(data.forecast.days) } : null }));
}

export function getEtAnalysisQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'et', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getEtAnalysis(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useEtAnalysis(deviceId: number, range: Range) {
  return useQuery(getEtAnalysisQueryOptions(deviceId, range));
}
