import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { toPage, type Page, type PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import { normalizeMessage, type Message } from '../types';
import { eventsKey } from './keys';

export interface MessageQuery extends PageQuery {
  unread: boolean;
}

export function getMessages({ page, size, unread }: MessageQuery, signal?: AbortSignal): Promise<Page<Message>> {
  return api
    .get<Page<Message>>('/event/messages', { params: { page, size, unread: unread || undefined }, signal })
    .then((answer) => toPage(answer, normalizeMessage));
}

export function getMessagesQueryOptions(query: MessageQuery, lang: Language) {
  return queryOptions({
    queryKey: [...eventsKey, 'messages', query, lang],
    queryFn: ({ signal }) => getMessages(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The caller's inbox, newest first. */
export function useMessages(query: MessageQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getMessagesQueryOptions(query, useLang()), enabled });
}
