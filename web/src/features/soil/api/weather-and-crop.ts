import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { CropInput, MoistureQuery, SevenMete, WeekWeather } from '../weather-types';

/** GET /apis/poi/week/weather: the last 7 days at the device's weather station and the 7-day forecast. */
export function useWeekWeather(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'week-weather'),
    queryFn: ({ signal }) =>
      api.get<WeekWeather>('/poi/week/weather', { params: { id: deviceId }, signal }).then((d) => ({
        ...d,
        observed: listOf(d.observed),
        forecast: d.forecast ? { ...d.forecast, days: listOf(d.forecast.days) } : null,
      })),
  });
}

/** GET /apis/poi/seven/mete: the meteorology of the last 7 days at the device's weather station. */
export function useSevenMete(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'seven-mete'),
    queryFn: ({ signal }) => api.get<SevenMete>('/poi/seven/mete', { params: { id: deviceId }, signal }).then((d) => ({ ...d, days: listOf(d.days) })),
  });
}

/** GET /apis/poi/data/sqy/query: daily soil moisture of each depth, with its share of field capacity. */
export function useMoistureQuery(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'sqy-query'),
    queryFn: ({ signal }) =>
      api.get<MoistureQuery>('/poi/data/sqy/query', { params: { id: deviceId, dim: 'daily' }, signal }).then((d) => ({
        ...d,
        nodes: listOf(d.nodes).map((n) => ({ ...n, points: listOf(n.points) })),
      })),
  });
}

/** PUT /apis/poi/crop/update: changes only the crop of the device's plot. */
export function useUpdateCrop(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CropInput) => api.put<unknown>('/poi/crop/update', input, { params: { id: deviceId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: poiKeys.device(deviceId) }),
  });
}
