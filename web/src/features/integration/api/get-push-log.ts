import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { PushLogPage, PushLogQuery } from '../types';
import { pushKey } from './keys';

/** How often the log is fetched again while it is on screen. */
export const LOG_REFRESH_MS = 10_000;

/** One page of the push log, newest first, with the channel's figures when one is chosen. */
export function getPushLog(query: PushLogQuery, signal?: AbortSignal): Promise<PushLogPage> {
  const { channelId, deviceId, status, window, page, size } = query;
  return api
    .get<PushLogPage>('/integration/channel/pushLogList', { params: { channelId, deviceId, status, window, page, size }, signal })
    .then((answer) => ({ ...answer, list: listOf(answer.list) }));
}

export function getPushLogQueryOptions(query: PushLogQuery) {
  return queryOptions({
    queryKey: [...pushKey, 'log', query],
    queryFn: ({ signal }) => getPushLog(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: LOG_REFRESH_MS,
  });
}

export function usePushLog(query: PushLogQuery) {
  return useQuery(getPushLogQueryOptions(query));
}
