import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { pushKey } from './keys';

/** Deletes a channel and its log. */
export function deleteChannel(id: number): Promise<null> {
  return api.delete<null>('/integration/channel/delete', { params: { id } });
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKey }),
  });
}
