import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceSales } from '../types';

export function getSales(id: number, signal?: AbortSignal): Promise<DeviceSales> {
  return api.get<DeviceSales>(`/poi/${id}/sales`, { signal });
}

export function getSalesQueryOptions(id: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'sales'),
    queryFn: ({ signal }) => getSales(id, signal),
    staleTime: 5 * 60_000,
  });
}

export function useSales(id: number) {
  return useQuery(getSalesQueryOptions(id));
}
