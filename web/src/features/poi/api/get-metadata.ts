import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { ParamCatalogue } from '@/lib/telemetry/types';

export function getMetadata(id: number, signal?: AbortSignal): Promise<ParamCatalogue> {
  return api.get<ParamCatalogue>(`/poi/${id}/datapoints/v2/metadata`, { signal });
}

export function getMetadataQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'metadata', lang),
    queryFn: ({ signal }) => getMetadata(id, signal),
    staleTime: 30 * 60_000,
  });
}

export function useMetadata(id: number, lang: Language) {
  return useQuery(getMetadataQueryOptions(id, lang));
}
