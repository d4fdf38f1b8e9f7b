import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { RuleType } from '../types';
import { rulesKey } from './keys';

export function getRuleTypes(signal?: AbortSignal): Promise<RuleType[]> {
  return api.get<RuleType[]>('/rule/types', { signal }).then(listOf);
}

export function getRuleTypesQueryOptions(lang: Language) {
  return queryOptions({
    queryKey: [...rulesKey, 'types', lang],
    queryFn: ({ signal }) => getRuleTypes(signal),
  });
}

/** The device types the caller has devices of. */
export function useRuleTypes({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getRuleTypesQueryOptions(useLang()), enabled });
}
