import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Rule, RuleInput } from '../types';
import { rulesKey } from './keys';

export interface UpdateRuleInput {
  id: number;
  rule: RuleInput;
}

/** Replaces the whole rule. */
export function updateRule({ id, rule }: UpdateRuleInput): Promise<Rule> {
  return api.put<Rule>(`/rule/${id}`, { ...rule, id });
}

export function useUpdateRule({ onSuccess }: { onSuccess?: (rule: Rule) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRule,
    onSuccess: async (rule) => {
      onSuccess?.(rule);
      await queryClient.invalidateQueries({ queryKey: rulesKey });
    },
  });
}
