import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { SoilSettings } from '../types';

export function normalizeSoilSettings(settings: SoilSettings): SoilSettings {
  return { ...settings, nodes: listOf(settings.nodes), cropTypes: listOf(settings.cropTypes), irrigationMethods: listOf(settings.irrigationMethods) };
}

/** GET /apis/poi/shang/config: the soil and crop settings the analyses use, with the choices for them. */
export function getSoilSettings(deviceId: number, signal?: AbortSignal): Promise<SoilSettings> {
  return api.get<SoilSettings>('/poi/shang/config', { params: { id: deviceId }, signal }).then(normalizeSoilSettings);
}

export function getSoilSettingsQueryOptions(deviceId: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(deviceId, 'shang-config', lang),
    queryFn: ({ signal }) => getSoilSettings(deviceId, signal),
  });
}

export function useSoilSettings(deviceId: number, lang: Language) {
  return useQuery(getSoilSettingsQueryOptions(deviceId, lang));
}
