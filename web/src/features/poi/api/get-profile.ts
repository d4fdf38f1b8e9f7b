import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DeviceProfile } from '../types';
import { poiKeys } from './keys';

export function getProfile(id: number, signal?: AbortSignal): Promise<DeviceProfile> {
  return api.get<DeviceProfile>(`/poi/${id}/profile`, { signal });
}

export function getProfileQueryOptions(id: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'profile'),
    queryFn: ({ signal }) => getProfile(id, signal),
  });
}

export function useProfile(id: number, enabled = true) {
  return useQuery({ ...getProfileQueryOptions(id), enabled });
}
