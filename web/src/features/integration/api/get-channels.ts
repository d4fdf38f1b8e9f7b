import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toPage, type Page, type PageQuery } from '@/lib/page';
import type { Channel, PushWindow } from '../types';
import { pushKey } from './keys';

export interface ChannelListQuery extends PageQuery {
  window: PushWindow;
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
    .then((answer) => toPage(answer, normalize));
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
