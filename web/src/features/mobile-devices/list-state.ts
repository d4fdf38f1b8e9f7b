import { parseListState, type DeviceView } from '@/features/devices/list-query';
import type { DeviceStatus } from '@/features/devices/types';

/** The phone's device list as its address keeps it, so back from a device shows the same list. */
export interface MobileDeviceState {
  view: DeviceView;
  /** A name substring, or the last 5+ digits of an SN (SPEC §9). */
  nameOrSn: string;
  status?: DeviceStatus;
  typeId?: number;
  tagId?: number;
}

/** Rows per request as the list scrolls. */
export const MOBILE_PAGE_SIZE = 20;

/** The statuses the phone offers first: what a farmer checks. The rest follow. */
export const MAIN_STATUSES: readonly DeviceStatus[] = ['online', 'offline', 'lowpower', 'fault'];

/** Reads the state from a query string, with the desktop list's rules (unknown values dropped). */
export function parseMobileState(search: URLSearchParams | string): MobileDeviceState {
  const { view, nameOrSn, status, typeId, tagId } = parseListState(search);
  return { view, nameOrSn, status, typeId, tagId };
}

/** The query string for a state, defaults left out. */
export function toMobileSearch(state: MobileDeviceState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.view !== 'list') params.set('view', state.view);
  if (state.nameOrSn.trim()) params.set('nameOrSn', state.nameOrSn.trim());
  if (state.status) params.set('status', state.status);
  if (state.typeId !== undefined) params.set('typeId', String(state.typeId));
  if (state.tagId !== undefined) params.set('tagId', String(state.tagId));
  return params;
}

/** How many of the dropdown filters (status, type, tag) are set. */
export function activeFilterCount(state: MobileDeviceState): number {
  return [state.status, state.typeId, state.tagId].filter((value) => value !== undefined).length;
}

export function hasMobileFilters(state: MobileDeviceState): boolean {
  return state.nameOrSn !== '' || activeFilterCount(state) > 0;
}

/** The same view with every filter cleared. */
export function clearMobileFilters(state: MobileDeviceState): MobileDeviceState {
  return { view: state.view, nameOrSn: '' };
}

