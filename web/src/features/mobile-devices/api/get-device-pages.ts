import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { devicesKey, getDevices } from '@/features/devices/api/get-devices';
import { nextPageNumber } from '@/lib/infinite-pages';
import { MOBILE_PAGE_SIZE, type MobileDeviceState } from '../list-state';

export type DeviceFilters = Omit<MobileDeviceState, 'view'>;

export function getDevicePagesQueryOptions(filters: DeviceFilters) {
  const { nameOrSn, status, typeId, tagId } = filters;
  return infiniteQueryOptions({
    // Under the devices key: a rename or a tag change elsewhere refreshes this list too.
    queryKey: [...devicesKey, 'mobile', { nameOrSn, status, typeId, tagId }],
    queryFn: ({ pageParam, signal }) =>
      getDevices({ nameOrSn, status, typeId, tagId, belong: 'all', page: pageParam, size: MOBILE_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextPageNumber(pages, MOBILE_PAGE_SIZE),
  });
}

/** The account's devices a page at a time, for a list that loads more as it is scrolled. */
export function useDevicePages(filters: DeviceFilters) {
  return useInfiniteQuery(getDevicePagesQueryOptions(filters));
}
