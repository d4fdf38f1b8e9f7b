import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ChannelInput, CreatedChannel } from '../types';
import { pushKey } from './keys';

/** Creates a channel; the answer holds its signing secret, shown this once. */
export function createChannel(input: ChannelInput): Promise<CreatedChannel> {
  return api.post<CreatedChannel>('/integration/channel/create', input);
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKey }),
  });
}
