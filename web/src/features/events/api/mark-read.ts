import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { eventsKey } from './keys';

/** Marks messages read; no ids marks every message read. Answers how many changed. */
export function markRead(ids: number[]): Promise<{ updated: number }> {
  return api.put<{ updated: number }>('/event/messages/read', { ids });
}

export function useMarkRead({ onSuccess }: { onSuccess?: (updated: number) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: async ({ updated }) => {
      onSuccess?.(updated);
      // The lists, the unread count and the menu badge.
      await queryClient.invalidateQueries({ queryKey: eventsKey });
    },
  });
}
