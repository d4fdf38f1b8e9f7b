import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Rule, RuleInput } from '../types';
import { rulesKey } from './keys';

export function createRule(input: RuleInput): Promise<Rule> {
  return api.post<Rule>('/rule', input);
}

export function useCreateRule({ onSuccess }: { onSuccess?: (rule: Rule) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRule,
    onSuccess: async (rule) => {
      onSuccess?.(rule);
      await queryClient.invalidateQueries({ queryKey: rulesKey });
    },
  });
}
