import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { WeatherNow } from '../types';

/** GET /apis/qi/{id}/data/realtime: the station's newest readings graded on the server (SPEC §9). */
export function getWeatherNow(deviceId: number, signal?: AbortSignal): Promise<WeatherNow> {
  return api
    .get<WeatherNow>(`/qi/${deviceId}/data/realtime`, { signal })
    .then((data) => ({
      ...data,
      values: listOf(data.values),
      airQuality: data.airQuality ? { ...data.airQuality, primary: listOf(data.airQuality.primary) } : null,
    }));
}

export function getWeatherNowQueryOptions(deviceId: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(deviceId, 'qi-realtime', lang),
    queryFn: ({ signal }) => getWeatherNow(deviceId, signal),
    refetchInterval: 60_000,
  });
}

export function useWeatherNow(deviceId: number, lang: Language, enabled = true) {
  return useQuery({ ...getWeatherNowQueryOptions(deviceId, lang), enabled });
}
