import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api-client';
import { eventsKey } from './keys';

/** How often the menu badge asks for the unread count. */
export const UNREAD_REFETCH_MS = 30_000;

export function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return request<{ unread: number }>('OPTIONS', '/event/messages', { signal }).then((answer) => answer.unread);
}

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: [...eventsKey, 'unread'],
    queryFn: ({ signal }) => getUnreadCount(signal),
    refetchInterval: UNREAD_REFETCH_MS,
    staleTime: 0,
  });
}

/** The caller's unread messages, kept fresh for the menu badge. */
export function useUnreadCount() {
  return useQuery(getUnreadCountQueryOptions());
}
