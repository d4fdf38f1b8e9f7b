import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { pushKey } from './keys';

/** Sends a failed log entry again, now, with fresh attempts. */
export function retryDelivery(id: number): Promise<null> {
  return api.post<null>('/integration/channel/retry', { id });
}

export function useRetryDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKey }),
  });
}
