import type { QueryParams } from '@/lib/api-client';
import { TYPE_IDS } from './device-types';
import {
  BELONGS,
  DEVICE_STATUSES,
  SORT_KEYS,
  type Belong,
  type DeviceStatus,
  type SortKey,
  type SortOrder,
} from './types';

export const VIEWS = ['list', 'map'] as const;
export type DeviceView = (typeof VIEWS)[number];

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** Everything the device list screen shows, as kept in the address bar so reload and back work. */
export interface DeviceListState {
  view: DeviceView;
  /** A name substring, or the last 5+ digits of an SN. */
  nameOrSn: string;
  status?: DeviceStatus;
  typeId?: number;
  belong: Belong;
  tagId?: number;
  sort?: SortKey;
  order?: SortOrder;
  page: number;
  size: number;
  /** A device the map centres on and opens. */
  focus?: number;
}

export const DEFAULT_STATE: DeviceListState = {
  view: 'list',
  nameOrSn: '',
  belong: 'all',
  page: 1,
  size: DEFAULT_PAGE_SIZE,
};

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** Reads the screen state from a query string; anything unknown or malformed is left at its default. */
export function parseListState(search: URLSearchParams | string): DeviceListState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const typeId = positiveInt(params.get('typeId'));
  const size = positiveInt(params.get('size'));
  const sort = oneOf(SORT_KEYS, params.get('sort'));
  return {
    view: oneOf(VIEWS, params.get('view')) ?? DEFAULT_STATE.view,
    nameOrSn: (params.get('nameOrSn') ?? '').trim(),
    status: oneOf(DEVICE_STATUSES, params.get('status')),
    typeId: typeId !== undefined && TYPE_IDS.includes(typeId) ? typeId : undefined,
    belong: oneOf(BELONGS, params.get('belong')) ?? DEFAULT_STATE.belong,
    tagId: positiveInt(params.get('tagId')),
    sort,
    order: sort ? (oneOf(['asc', 'desc'] as const, params.get('order')) ?? 'asc') : undefined,
    page: positiveInt(params.get('page')) ?? DEFAULT_STATE.page,
    size: size !== undefined && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_STATE.size,
    focus: positiveInt(params.get('focus')),
  };
}

/** The query string for a state; values at their default are left out to keep addresses short. */
export function toSearchParams(state: DeviceListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.view !== DEFAULT_STATE.view) params.set('view', state.view);
  if (state.nameOrSn.trim()) params.set('nameOrSn', state.nameOrSn.trim());
  if (state.status) params.set('status', state.status);
  if (state.typeId !== undefined) params.set('typeId', String(state.typeId));
  if (state.belong !== DEFAULT_STATE.belong) params.set('belong', state.belong);
  if (state.tagId !== undefined) params.set('tagId', String(state.tagId));
  if (state.sort) {
    params.set('sort', state.sort);
    params.set('order', state.order ?? 'asc');
  }
  if (state.page !== DEFAULT_STATE.page) params.set('page', String(state.page));
  if (state.size !== DEFAULT_STATE.size) params.set('size', String(state.size));
  if (state.focus !== undefined) params.set('focus', String(state.focus));
  return params;
}

/** Filters that narrow the list; changing any of them starts again at page 1. */
export type ListFilters = Pick<DeviceListState, 'nameOrSn' | 'status' | 'typeId' | 'belong' | 'tagId'>;

/** A new state with some filters changed: back to the first page. */
export function withFilters(state: DeviceListState, filters: Partial<ListFilters>): DeviceListState {
  return { ...state, ...filters, page: 1 };
}

export function hasFilters(state: DeviceListState): boolean {
  return (
    state.nameOrSn !== '' ||
    state.status !== undefined ||
    state.typeId !== undefined ||
    state.belong !== DEFAULT_STATE.belong ||
    state.tagId !== undefined
  );
}

export function clearFilters(state: DeviceListState): DeviceListState {
  return withFilters(state, { nameOrSn: '', status: undefined, typeId: undefined, belong: 'all', tagId: undefined });
}

/** The GET /apis/devices parameters for a state. */
export function toApiParams(state: DeviceListState): QueryParams {
  return {
    nameOrSn: state.nameOrSn || undefined,
    status: state.status,
    typeId: state.typeId,
    belong: state.belong === 'all' ? undefined : state.belong,
    tagId: state.tagId,
    sort: state.sort,
    order: state.sort ? state.order : undefined,
    page: state.page,
    size: state.size,
  };
}
