import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page } from '@/lib/page';
import { listOf } from '@/lib/page';
import type { AdviceDevice } from '../types';
import { devicesKey } from './keys';

/**
 * The detail pages of devices the advice has something to say about: soil moisture (the root zone,
 * the crop), weather stations (ET, frost, heat), rain gauges and insect traps.
 */
export const ADVICE_PAGES = ['moisture', 'zhi-shang', 'dcr004', 'meteorological-moisture', 'tianqi', 'pluviometer', 'ibiosense'] as const;

/** The order the picker groups them in: soil first, where the tasks come from. */
export const ADVICE_GROUPS = ['soil', 'meteorology', 'disaster', 'ecology'] as const;

/** The largest page the device list answers. */
const LIST_SIZE = 100;

/** The caller's devices (their own and shared with them) the advice can read, by name or SN. */
export function getAdviceDevices(search: string, signal?: AbortSignal): Promise<AdviceDevice[]> {
  return api
    .get<Page<AdviceDevice>>('/devices', { params: { page: 1, size: LIST_SIZE, sort: 'name', nameOrSn: search.trim() || undefined }, signal })
    .then((page) => listOf(page.list).filter((d) => !d.slave && (ADVICE_PAGES as readonly string[]).includes(d.page)));
}

export function useAdviceDevices(search: string, lang: string) {
  return useQuery({
    queryKey: [...devicesKey, search.trim(), lang],
    queryFn: ({ signal }) => getAdviceDevices(search, signal),
    placeholderData: keepPreviousData,
  });
}

/** One device by id, for a page opened on a device the first list page does not hold. */
export function useAdviceDevice(id: number | undefined, lang: string) {
  return useQuery({
    queryKey: [...devicesKey, 'one', id, lang],
    queryFn: ({ signal }) => api.get<AdviceDevice>('/poi/info', { params: { id }, signal }),
    enabled: id !== undefined,
  });
}
