import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toPage, type Page, type PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { SharedDevice } from '../types';
import { sharingKey } from './keys';

/** Devices other accounts share with me, with their owner and my rights. */
export function getSharedWithMe({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<SharedDevice>> {
  return api
    .get<Page<SharedDevice>>('/authorized/devices', { params: { page, size }, signal })
    .then((answer) => toPage(answer));
}

export function getSharedWithMeQueryOptions(query: PageQuery, lang: string) {
  return queryOptions({
    queryKey: [...sharingKey, 'shared-with-me', query, lang],
    queryFn: ({ signal }) => getSharedWithMe(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSharedWithMe(query: PageQuery) {
  return useQuery(getSharedWithMeQueryOptions(query, useLang()));
}
