import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GrantedDevice, Page, PageQuery } from '../types';
import { useLang } from '../use-lang';
import { sharingKey } from './keys';

/** My devices that are shared, each with everyone it is shared with. */
export function getGrantedDevices({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<GrantedDevice>> {
  return api
    .get<Page<GrantedDevice>>('/granted/devices', { params: { page, size }, signal })
    .then((answer) => ({ list: (answer.list ?? []).map((device) => ({ ...device, users: device.users ?? [] })), total: answer.total }));
}

export function getGrantedDevicesQueryOptions(query: PageQuery, lang: string) {
  return queryOptions({
    queryKey: [...sharingKey, 'granted-devices', query, lang],
    queryFn: ({ signal }) => getGrantedDevices(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useGrantedDevices(query: PageQuery) {
  return useQuery(getGrantedDevicesQueryOptions(query, useLang()));
}
