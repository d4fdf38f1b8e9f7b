import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf, toPage, type Page, type PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { GrantedDevice } from '../types';
import { sharingKey } from './keys';

/** My devices that are shared, each with everyone it is shared with. */
export function getGrantedDevices({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<GrantedDevice>> {
  return api
    .get<Page<GrantedDevice>>('/granted/devices', { params: { page, size }, signal })
    .then((answer) => toPage(answer, (device) => ({ ...device, users: listOf(device.users) })));
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
