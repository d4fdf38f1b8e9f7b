import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { ParamSource, RuleParam } from '../types';
import { rulesKey } from './keys';

export function sourceKey(source: ParamSource): string {
  return 'deviceId' in source ? `device:${source.deviceId}` : `type:${source.typeId}`;
}

export function getRuleParams(source: ParamSource, signal?: AbortSignal): Promise<RuleParam[]> {
  return api
    .get<RuleParam[]>('/rule/params', { params: { ...source }, signal })
    .then((list) => listOf(list).map((param) => ({ ...param, nodes: listOf(param.nodes) })));
}

export function getRuleParamsQueryOptions(source: ParamSource, lang: Language) {
  return queryOptions({
    queryKey: [...rulesKey, 'params', sourceKey(source), lang],
    queryFn: ({ signal }) => getRuleParams(source, signal),
    staleTime: 10 * 60_000,
  });
}

/** The parameters a rule may test; nothing while `source` is undefined. */
export function useRuleParams(source: ParamSource | undefined) {
  const lang = useLang();
  return useQuery({
    ...getRuleParamsQueryOptions(source ?? { typeId: 0 }, lang),
    enabled: source !== undefined,
  });
}

/** The parameters of several sources, by sourceKey; for describing a page of rules. */
export function useRuleParamsOf(sources: ParamSource[]) {
  const lang = useLang();
  return useQueries({
    queries: sources.map((source) => getRuleParamsQueryOptions(source, lang)),
    combine: (results) => {
      const bySource = new Map<string, RuleParam[]>();
      results.forEach((result, index) => {
        if (result.data) bySource.set(sourceKey(sources[index]), result.data);
      });
      return bySource;
    },
  });
}
