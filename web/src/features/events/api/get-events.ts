import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { normalizePage, type EventFilters, type Message, type Page } from '../types';
import { useLang } from '../use-lang';
import { eventsKey } from './keys';

export interface EventQuery extends EventFilters {
  page: number;
  size: number;
}

export function getEvents(query: EventQuery, signal?: AbortSignal): Promise<Page<Message>> {
  return api.get<Page<Message>>('/event/events', { params: { ...query }, signal }).then(normalizePage);
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
