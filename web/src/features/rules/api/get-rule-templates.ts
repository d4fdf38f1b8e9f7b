import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import { normalizeRule, type RuleTemplate } from '../types';
import { rulesKey } from './keys';

export function getRuleTemplates(typeId: number, signal?: AbortSignal): Promise<RuleTemplate[]> {
  return api
    .get<RuleTemplate[]>('/rule/templates', { params: { typeId }, signal })
    .then((list) => listOf(list).map((template) => ({ ...template, rule: normalizeRule(template.rule) })));
}

export function getRuleTemplatesQueryOptions(typeId: number, lang: Language) {
  return queryOptions({
    queryKey: [...rulesKey, 'templates', typeId, lang],
    queryFn: ({ signal }) => getRuleTemplates(typeId, signal),
    staleTime: 10 * 60_000,
  });
}

/** The built-in templates that apply to a device type; nothing until a type is chosen. */
export function useRuleTemplates(typeId: number | undefined) {
  return useQuery({ ...getRuleTemplatesQueryOptions(typeId ?? 0, useLang()), enabled: typeId !== undefined });
}
