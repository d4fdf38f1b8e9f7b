import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { WeatherAlerts } from '../types';

/** GET /apis/qi/weather/alert: the weather alerts the newest readings raise, and which kinds were checked. */
export function getWeatherAlerts(deviceId: number, signal?: AbortSignal): Promise<WeatherAlerts> {
  return api
    .get<WeatherAlerts>('/qi/weather/alert', { params: { id: deviceId }, signal })
    .then((data) => ({
      ...data,
      alerts: listOf(data.alerts),
      checked: listOf(data.checked),
      checks: listOf(data.checks),
      needFeed: listOf(data.needFeed),
    }));
}

export function getWeatherAlertsQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'weather-alert'),
    queryFn: ({ signal }) => getWeatherAlerts(deviceId, signal),
  });
}

export function useWeatherAlerts(deviceId: number) {
  return useQuery(getWeatherAlertsQueryOptions(deviceId));
}
