import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Replaces a channel's signing secret; the new one is shown this once and the old stops working. */
export function resetChannelSecret(id: number): Promise<{ secret: string }> {
  return api.post<{ secret: string }>('/integration/channel/secret', { id });
}

export function useResetChannelSecret() {
  return useMutation({ mutationFn: resetChannelSecret });
}
