import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { normalizePage, type Message, type Page } from '../types';
import { useLang } from '../use-lang';
import { eventsKey } from './keys';

export interface MessageQuery {
  page: number;
  size: number;
  unread: boolean;
}

export function getMessages({ page, size, unread }: MessageQuery, signal?: AbortSignal): Promise<Page<Message>> {
  return api
    .get<Page<Message>>('/event/messages', { params: { page, size, unread: unread || undefined }, signal })
    .then(normalizePage);
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
