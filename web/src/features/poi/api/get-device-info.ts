import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import type { DeviceInfo } from '../types';

/** Identifies a device by its id, or by its page hash alone (the rain gauge page has no id). */
export type DeviceRef = { id: number } | { hashId: string };

export function getDeviceInfo(ref: DeviceRef, signal?: AbortSignal): Promise<DeviceInfo> {
  const params = 'id' in ref ? { id: ref.id } : { hashId: ref.hashId };
  return api.get<DeviceInfo>('/poi/info', { params, signal });
}

export function getDeviceInfoQueryOptions(ref: DeviceRef, lang: Language) {
  return queryOptions({
    queryKey: ['poi', 'info', 'id' in ref ? `id:${ref.id}` : `hash:${ref.hashId}`, lang],
    queryFn: ({ signal }) => getDeviceInfo(ref, signal),
    refetchInterval: 60_000,
  });
}

export function useDeviceInfo(ref: DeviceRef, lang: Language) {
  return useQuery(getDeviceInfoQueryOptions(ref, lang));
}
