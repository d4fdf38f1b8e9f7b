import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Channel } from '../types';
import { pushKey } from './keys';

/** One of the caller's channels, with its figures over the last hour. */
export function getChannel(id: number, signal?: AbortSignal): Promise<Channel> {
  return api
    .get<Channel>('/integration/channel/get', { params: { id, window: '1h' }, signal })
    .then((channel) => ({ ...channel, deviceIds: channel.deviceIds ?? [] }));
}

export function getChannelQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...pushKey, 'channel', id],
    queryFn: ({ signal }) => getChannel(id, signal),
  });
}

export function useChannel(id: number | null) {
  return useQuery({ ...getChannelQueryOptions(id ?? 0), enabled: id !== null });
}
