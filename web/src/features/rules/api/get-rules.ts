import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { normalizeRule, type Page, type Rule } from '../types';
import { useLang } from '../use-lang';
import { rulesKey } from './keys';

export interface RuleListQuery {
  page: number;
  size: number;
}

export function getRules({ page, size }: RuleListQuery, signal?: AbortSignal): Promise<Page<Rule>> {
  return api
    .get<Page<Rule>>('/rules', { params: { page, size }, signal })
    .then((answer) => ({ list: (answer.list ?? []).map(normalizeRule), total: answer.total }));
}

export function getRulesQueryOptions(query: RuleListQuery, lang: Language) {
  return queryOptions({
    queryKey: [...rulesKey, 'list', query, lang],
    queryFn: ({ signal }) => getRules(query, signal),
    // Paging keeps the current rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}

export function useRules(query: RuleListQuery) {
  return useQuery(getRulesQueryOptions(query, useLang()));
}
