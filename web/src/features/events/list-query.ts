import { PAGE_SIZES } from '@/lib/page';
import { KINDS, LEVELS, type EventFilters, type Kind, type Level } from './types';

export const TABS = ['messages', 'events'] as const;
export type Tab = (typeof TABS)[number];

/** The events page as its address holds it, so a reload or a shared link shows the same list. */
export interface EventsPageState extends EventFilters {
  tab: Tab;
  page: number;
  size: number;
  /** Messages tab: unread only. */
  unread: boolean;
}

function positiveInt(value: string | null): number | undefined {
  if (value === null) return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return list.find((item) => item === value);
}

export function parseEventsState(params: URLSearchParams): EventsPageState {
  const size = positiveInt(params.get('size'));
  return {
    tab: oneOf(TABS, params.get('tab')) ?? 'messages',
    page: positiveInt(params.get('page')) ?? 1,
    size: size !== undefined && PAGE_SIZES.includes(size) ? size : PAGE_SIZES[0],
    unread: params.get('unread') === 'true',
    deviceId: positiveInt(params.get('deviceId')),
    ruleId: positiveInt(params.get('ruleId')),
    level: oneOf<Level>(LEVELS, params.get('level')),
    kind: oneOf<Kind>(KINDS, params.get('kind')),
    begin: positiveInt(params.get('begin')),
    end: positiveInt(params.get('end')),
  };
}

export function toSearchParams(state: EventsPageState): URLSearchParams {
  const params = new URLSearchParams();
  params.set('tab', state.tab);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.size !== PAGE_SIZES[0]) params.set('size', String(state.size));
  if (state.tab === 'messages') {
    if (state.unread) params.set('unread', 'true');
    return params;
  }
  for (const key of ['deviceId', 'ruleId', 'level', 'kind', 'begin', 'end'] as const) {
    const value = state[key];
    if (value !== undefined) params.set(key, String(value));
  }
  return params;
}

export function filtersOf(state: EventsPageState): EventFilters {
  const { deviceId, ruleId, level, kind, begin, end } = state;
  return { deviceId, ruleId, level, kind, begin, end };
}

/** The state with exactly these filters (the others cleared), from the first page. */
export function withFilters(state: EventsPageState, filters: EventFilters): EventsPageState {
  const { deviceId, ruleId, level, kind, begin, end } = filters;
  return { ...state, deviceId, ruleId, level, kind, begin, end, page: 1 };
}
