import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page } from '@/lib/page';
import type { Channel } from '../types';
import { pushKey } from './keys';

export interface SwitchChannelInput {
  id: number;
  enabled: boolean;
}

/** Starts or stops a channel's deliveries. */
export function switchChannel(input: SwitchChannelInput): Promise<null> {
  return api.put<null>('/integration/channel/switch', input);
}

export function useSwitchChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchChannel,
    onSuccess: (_answer, { id, enabled }) => {
      // The switch shows the new state at once, not after the list is fetched again.
      queryClient.setQueriesData<Page<Channel>>({ queryKey: [...pushKey, 'channels'] }, (page) =>
        page && { ...page, list: page.list.map((channel) => (channel.id === id ? { ...channel, enabled } : channel)) },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushKey }),
  });
}
