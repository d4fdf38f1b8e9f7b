import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DeviceProfile } from '../types';

export function getDeviceProfile(deviceId: number, signal?: AbortSignal): Promise<DeviceProfile> {
  return api.get<DeviceProfile>(`/poi/${deviceId}/profile`, { signal });
}

export function getDeviceProfileQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: ['poi', deviceId, 'profile'],
    queryFn: ({ signal }) => getDeviceProfile(deviceId, signal),
    staleTime: 0,
  });
}
