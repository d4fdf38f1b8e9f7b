import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { TiltTrend } from '../types';

/** GET /apis/poi/shan/trend: the tilt series with their rate, steps and cumulative change. */
export function getTiltTrend(deviceId: number, signal?: AbortSignal): Promise<TiltTrend> {
  return api
    .get<TiltTrend>('/poi/shan/trend', { params: { id: deviceId }, signal })
    .then((data) => ({ ...data, series: listOf(data.series) }));
}

export function getTiltTrendQueryOptions(deviceId: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(deviceId, 'shan-trend', lang),
    queryFn: ({ signal }) => getTiltTrend(deviceId, signal),
  });
}

export function useTiltTrend(deviceId: number, lang: Language) {
  return useQuery(getTiltTrendQueryOptions(deviceId, lang));
}
