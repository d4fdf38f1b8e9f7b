import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MapAll } from '../types';
import { devicesKey } from './get-devices';

export function getMapDevices(signal?: AbortSignal): Promise<MapAll> {
  return api.get<MapAll>('/map/all', { signal });
}

export function getMapDevicesQueryOptions() {
  return queryOptions({
    queryKey: [...devicesKey, 'map'],
    queryFn: ({ signal }) => getMapDevices(signal),
  });
}

export function useMapDevices() {
  return useQuery(getMapDevicesQueryOptions());
}
