import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceProfile } from '../types';

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
