import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { normalizeRule, type Rule } from '../types';
import { rulesKey } from './keys';

export function getRule(id: number, signal?: AbortSignal): Promise<Rule> {
  return api.get<Rule>(`/rule/${id}`, { signal }).then(normalizeRule);
}

export function getRuleQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...rulesKey, 'detail', id],
    queryFn: ({ signal }) => getRule(id, signal),
    // The form edits what the server has now, not what the table showed a while ago.
    staleTime: 0,
  });
}

/** One rule, for the edit form; `id` null fetches nothing (a new rule). */
export function useRule(id: number | null) {
  return useQuery({ ...getRuleQueryOptions(id ?? 0), enabled: id !== null });
}
