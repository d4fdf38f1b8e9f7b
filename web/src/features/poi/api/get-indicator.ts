import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceIndicator } from '../types';

export function getIndicator(id: number, signal?: AbortSignal): Promise<DeviceIndicator> {
  return api.get<DeviceIndicator>(`/poi/${id}/indicator`, { signal });
}

export function getIndicatorQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'indicator', lang),
    queryFn: ({ signal }) => getIndicator(id, signal),
    refetchInterval: 60_000,
  });
}

export function useIndicator(id: number, lang: Language) {
  return useQuery(getIndicatorQueryOptions(id, lang));
}
