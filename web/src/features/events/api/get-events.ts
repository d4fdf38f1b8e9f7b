import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { toPage, type Page } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import { normalizeMessage, type EventFilters, type Message } from '../types';
import { eventsKey } from './keys';

export interface EventQuery extends EventFilters {
  page: number;
  size: number;
}

export function getEvents(query: EventQuery, signal?: AbortSignal): Promise<Page<Message>> {
  return api.get<Page<Message>>('/event/events', { params: { ...query }, signal }).then((answer) => toPage(answer, normalizeMessage));
}

export function getEventsQueryOptions(query: EventQuery, lang: Language) {
  return queryOptions({
    queryKey: [...eventsKey, 'events', query, lang],
    queryFn: ({ signal }) => getEvents(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every event of the caller's rules that matches the filters, newest first. */
export function useEvents(query: EventQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getEventsQueryOptions(query, useLang()), enabled });
}
