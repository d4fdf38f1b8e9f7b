import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceTopology } from '../types';

export function getTopology(id: number, signal?: AbortSignal): Promise<DeviceTopology> {
  return api.get<DeviceTopology>('/poi/topology', { params: { id }, signal });
}

export function getTopologyQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'topology', lang),
    queryFn: ({ signal }) => getTopology(id, signal),
    refetchInterval: 60_000,
  });
}

export function useTopology(id: number, lang: Language) {
  return useQuery(getTopologyQueryOptions(id, lang));
}
