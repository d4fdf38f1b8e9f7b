import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import type { Channel } from '../types';
import { getChannels } from './get-channels';
import { pushKey } from './keys';

const PAGE = 100;

/** One channel, looked up in the list (there is no call for a single channel). */
export async function getChannel(id: number, signal?: AbortSignal): Promise<Channel> {
  for (let page = 1; ; page += 1) {
    const answer = await getChannels({ window: '1h', page, size: PAGE }, signal);
    const found = answer.list.find((channel) => channel.id === id);
    if (found) return found;
    if (page * PAGE >= answer.total) break;
  }
  throw new ApiError({ kind: 'normal', code: 1404, status: 404, message: i18n.t('errors:notFound') });
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
