import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rulesKey } from './keys';

/** Deletes a rule and its events. */
export function deleteRule(id: number): Promise<null> {
  return api.delete<null>(`/rule/${id}`);
}

export function useDeleteRule({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRule,
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: rulesKey });
    },
  });
}
