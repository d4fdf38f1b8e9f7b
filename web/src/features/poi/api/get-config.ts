import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceConfig } from '../types';

export function getConfig(id: number, signal?: AbortSignal): Promise<DeviceConfig> {
  return api.get<DeviceConfig>(`/poi/${id}/config`, { signal });
}

export function getConfigQueryOptions(id: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'config'),
    queryFn: ({ signal }) => getConfig(id, signal),
  });
}

export function useConfig(id: number, enabled = true) {
  return useQuery({ ...getConfigQueryOptions(id), enabled });
}
