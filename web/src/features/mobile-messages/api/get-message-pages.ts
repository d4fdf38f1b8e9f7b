import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { eventsKey } from '@/features/events/api/keys';
import { normalizeMessage, type Message } from '@/features/events/types';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { nextPageNumber } from '@/lib/infinite-pages';
import { toPage, type Page } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import { messageParams, MESSAGES_PAGE_SIZE, type MessageFilters } from '../list-state';

export function getMessagePage(filters: MessageFilters, page: number, signal?: AbortSignal): Promise<Page<Message>> {
  return api
    .get<Page<Message>>('/event/messages', { params: messageParams(filters, page), signal })
    .then((answer) => toPage(answer, normalizeMessage));
}

export function getMessagePagesQueryOptions(filters: MessageFilters, lang: Language) {
  const { level, kind, unread } = filters;
  return infiniteQueryOptions({
    // Under the events key: marking read refreshes this list, the counts and the badge together.
    queryKey: [...eventsKey, 'mobile-messages', { level, kind, unread }, lang],
    queryFn: ({ pageParam, signal }) => getMessagePage({ level, kind, unread }, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextPageNumber(pages, MESSAGES_PAGE_SIZE),
  });
}

/** The caller's messages a page at a time, newest first, descriptions in the UI's language. */
export function useMessagePages(filters: MessageFilters) {
  return useInfiniteQuery(getMessagePagesQueryOptions(filters, useLang()));
}
