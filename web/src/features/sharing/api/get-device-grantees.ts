import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { Grantee } from '../types';
import { sharingKey } from './keys';

/** Everyone one of my devices is shared with. */
export function getDeviceGrantees(poiId: number, signal?: AbortSignal): Promise<Grantee[]> {
  return api.get<Grantee[] | null>(`/poi/${poiId}/authorized`, { signal }).then(listOf);
}

export function getDeviceGranteesQueryOptions(poiId: number) {
  return queryOptions({
    queryKey: [...sharingKey, 'device-grantees', poiId],
    queryFn: ({ signal }) => getDeviceGrantees(poiId, signal),
  });
}

export function useDeviceGrantees(poiId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDeviceGranteesQueryOptions(poiId), enabled });
}
