import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceIntro } from '../types';

export function getIntro(id: number, signal?: AbortSignal): Promise<DeviceIntro> {
  return api.get<DeviceIntro>(`/poi/${id}/intro`, { signal });
}

export function getIntroQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'intro', lang),
    queryFn: ({ signal }) => getIntro(id, signal),
    staleTime: 5 * 60_000,
  });
}

export function useIntro(id: number, lang: Language) {
  return useQuery(getIntroQueryOptions(id, lang));
}
