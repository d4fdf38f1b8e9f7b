import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { toPage, type Page, type PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import { normalizeRule, type Rule } from '../types';
import { rulesKey } from './keys';

export function getRules({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<Rule>> {
  return api
    .get<Page<Rule>>('/rules', { params: { page, size }, signal })
    .then((answer) => toPage(answer, normalizeRule));
}

export function getRulesQueryOptions(query: PageQuery, lang: Language) {
  return queryOptions({
    queryKey: [...rulesKey, 'list', query, lang],
    queryFn: ({ signal }) => getRules(query, signal),
    // Paging keeps the current rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}

export function useRules(query: PageQuery) {
  return useQuery(getRulesQueryOptions(query, useLang()));
}
