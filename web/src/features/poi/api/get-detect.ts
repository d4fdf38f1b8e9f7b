import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceDetect } from '../types';

export function getDetect(id: number, signal?: AbortSignal): Promise<DeviceDetect> {
  return api.get<DeviceDetect>(`/poi/${id}/detect`, { signal });
}

export function getDetectQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'detect', lang),
    queryFn: ({ signal }) => getDetect(id, signal),
    refetchInterval: 60_000,
  });
}

export function useDetect(id: number, lang: Language, enabled = true) {
  return useQuery({ ...getDetectQueryOptions(id, lang), enabled });
}
