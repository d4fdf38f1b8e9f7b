import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page } from '@/lib/page';
import type { Rule } from '../types';
import { rulesKey } from './keys';

export interface SetRuleEnabledInput {
  id: number;
  enabled: boolean;
}

/** The table's switch: changes only `enabled`. */
export function setRuleEnabled({ id, enabled }: SetRuleEnabledInput): Promise<unknown> {
  return api.put<unknown>(`/rule/${id}`, { enabled }, { params: { includes: 'enabled' } });
}

export function useSetRuleEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRuleEnabled,
    onSuccess: (_answer, { id, enabled }) => {
      // The switch shows the new state at once, not after the list is fetched again.
      queryClient.setQueriesData<Page<Rule>>({ queryKey: [...rulesKey, 'list'] }, (page) =>
        page && { ...page, list: page.list.map((rule) => (rule.id === id ? { ...rule, enabled } : rule)) },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
}
