import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf, type Page } from '@/lib/page';
import type { DeviceOption, RuleOption } from '../types';
import { eventsKey } from './keys';

/** The most rules one page holds; the filter offers the caller's first this many. */
const RULES_PAGE_SIZE = 100;

export function getRuleOptions(signal?: AbortSignal): Promise<RuleOption[]> {
  return api
    .get<Page<RuleOption>>('/rules', { params: { page: 1, size: RULES_PAGE_SIZE }, signal })
    .then((page) => listOf(page.list).map(({ id, name, typeId, deviceIds }) => ({ id, name, typeId, deviceIds: listOf(deviceIds) })));
}

export function getRuleOptionsQueryOptions() {
  return queryOptions({
    queryKey: [...eventsKey, 'filters', 'rules'],
    queryFn: ({ signal }) => getRuleOptions(signal),
  });
}

export function getDeviceOptions(typeId: number, signal?: AbortSignal): Promise<DeviceOption[]> {
  return api.get<DeviceOption[]>('/rule/devices', { params: { typeId }, signal }).then(listOf);
}

function getDeviceOptionsQueryOptions(typeId: number) {
  return queryOptions({
    queryKey: [...eventsKey, 'filters', 'devices', typeId],
    queryFn: ({ signal }) => getDeviceOptions(typeId, signal),
  });
}

/**
 * What the events filters offer: the caller's rules, and the devices those rules watch (only
 * they can have events), with names and SNs.
 */
export function useFilterOptions() {
  const rules = useQuery(getRuleOptionsQueryOptions());
  const typeIds = [...new Set((rules.data ?? []).map((rule) => rule.typeId))];
  const watched = new Set((rules.data ?? []).flatMap((rule) => rule.deviceIds));
  const devices = useQueries({
    queries: typeIds.map(getDeviceOptionsQueryOptions),
    combine: (results) => results.flatMap((result) => result.data ?? []),
  });
  return {
    rules: rules.data ?? [],
    devices: devices.filter((device) => watched.has(device.id)),
    loading: rules.isFetching,
  };
}
