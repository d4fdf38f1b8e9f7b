import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Channel, ChannelInput } from '../types';
import { pushKey } from './keys';

export interface UpdateChannelInput extends ChannelInput {
  id: number;
}

/** Changes a channel's name, address and devices; its secret stays. */
export function updateChannel(input: UpdateChannelInput): Promise<Channel> {
  return api.put<Channel>('/integration/channel/update', input);
}

export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKey }),
  });
}
