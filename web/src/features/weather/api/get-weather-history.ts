import { useQuery } from '@tanstack/react-query';
import type { WeatherDay } from '@/components/weather-days';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';

/** GET /apis/qi/data/history. */
export interface WeatherHistory {
  begin: number;
  end: number;
  days: WeatherDay[];
}


/** GET /apis/qi/data/history: a weather station's days (30 by default). */
export function useWeatherHistory(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'weather-history'),
    queryFn: ({ signal }) => api.get<WeatherHistory>('/qi/data/history', { params: { id: deviceId }, signal }).then((d) => ({ ...d, days: listOf(d.days) })),
  });
}

