import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Channel, Page, PushWindow } from '../types';
import { pushKey } from './keys';

export interface ChannelListQuery {
  window: PushWindow;
  page: number;
  size: number;
}

/** How often the channel figures are fetched again while the list is on screen. */
export const CHANNELS_REFRESH_MS = 10_000;

function normalize(channel: Channel): Channel {
  return { ...channel, deviceIds: channel.deviceIds ?? [] };
}

/** The caller's channels with their figures over the window. */
export function getChannels({ window, page, size }: ChannelListQuery, signal?: AbortSignal): Promise<Page<Channel>> {
  return api
    .get<Page<Channel>>('/integration/channel/list', { params: { window, page, size }, signal })
    .then((answer) => ({ list: (answer.list ?? []).map(normalize), total: answer.total }));
}

export function getChannelsQueryOptions(query: ChannelListQuery) {
  return queryOptions({
    queryKey: [...pushKey, 'channels', query],
    queryFn: ({ signal }) => getChannels(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: CHANNELS_REFRESH_MS,
  });
}

export function useChannels(query: ChannelListQuery) {
  return useQuery(getChannelsQueryOptions(query));
}
