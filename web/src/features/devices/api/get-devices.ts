import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page } from '@/lib/page';
import { toApiParams, type DeviceListState } from '../list-query';
import type { Device } from '../types';

/** Every query that lists devices starts with this key, so a change to a device refreshes them all. */
export const devicesKey = ['devices'] as const;

export type DeviceListQuery = Omit<DeviceListState, 'view' | 'focus'>;

export function getDevices(query: DeviceListQuery, signal?: AbortSignal): Promise<Page<Device>> {
  return api.get<Page<Device>>('/devices', { params: toApiParams({ ...query, view: 'list' }), signal });
}

export function getDevicesQueryOptions(query: DeviceListQuery) {
  return queryOptions({
    queryKey: [...devicesKey, 'list', query],
    queryFn: ({ signal }) => getDevices(query, signal),
    // Paging and sorting keep the current rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
    // Devices report every few minutes; the list follows without a reload.
    refetchInterval: 60_000,
  });
}

export function useDevices(query: DeviceListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDevicesQueryOptions(query), enabled });
}
