import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { RuleDevice } from '../types';
import { rulesKey } from './keys';

export function getRuleDevices(typeId: number, signal?: AbortSignal): Promise<RuleDevice[]> {
  return api.get<RuleDevice[]>('/rule/devices', { params: { typeId }, signal }).then(listOf);
}

export function getRuleDevicesQueryOptions(typeId: number) {
  return queryOptions({
    queryKey: [...rulesKey, 'devices', typeId],
    queryFn: ({ signal }) => getRuleDevices(typeId, signal),
  });
}

/** The caller's devices of one type; nothing until a type is chosen. */
export function useRuleDevices(typeId: number | undefined) {
  return useQuery({ ...getRuleDevicesQueryOptions(typeId ?? 0), enabled: typeId !== undefined });
}

/** The caller's devices of several types, in the order of `typeIds`. */
export function useRuleDevicesOfTypes(typeIds: number[], { enabled = true }: { enabled?: boolean } = {}) {
  return useQueries({
    queries: typeIds.map((typeId) => ({ ...getRuleDevicesQueryOptions(typeId), enabled })),
    combine: (results) => ({
      devices: results.flatMap((result) => result.data ?? []),
      isLoading: results.some((result) => result.isLoading),
    }),
  });
}
