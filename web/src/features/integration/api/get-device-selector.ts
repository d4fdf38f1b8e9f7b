import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { DeviceChoice } from '../types';

/** Every device the caller may push: their own, and shared ones with the export right. */
export function getDeviceSelector(signal?: AbortSignal): Promise<DeviceChoice[]> {
  return api.get<DeviceChoice[] | null>('/integration/channel/selector', { signal }).then(listOf);
}

export function getDeviceSelectorQueryOptions(lang: Language) {
  return queryOptions({
    queryKey: ['integration', 'selector', lang],
    queryFn: ({ signal }) => getDeviceSelector(signal),
    staleTime: 60_000,
  });
}

export function useDeviceSelector() {
  return useQuery(getDeviceSelectorQueryOptions(useLang()));
}
