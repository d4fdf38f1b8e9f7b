import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page, PageQuery, SharedDevice } from '../types';
import { useLang } from '../use-lang';
import { sharingKey } from './keys';

/** Devices other accounts share with me, with their owner and my rights. */
export function getSharedWithMe({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<SharedDevice>> {
  return api
    .get<Page<SharedDevice>>('/authorized/devices', { params: { page, size }, signal })
    .then((answer) => ({ list: answer.list ?? [], total: answer.total }));
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
