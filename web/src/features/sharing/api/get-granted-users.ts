import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GrantedUser, Page, PageQuery } from '../types';
import { useLang } from '../use-lang';
import { sharingKey } from './keys';

/** Everyone I share devices with, each with those devices and their rights. */
export function getGrantedUsers({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<GrantedUser>> {
  return api
    .get<Page<GrantedUser>>('/granted/users', { params: { page, size }, signal })
    .then((answer) => ({ list: (answer.list ?? []).map((user) => ({ ...user, devices: user.devices ?? [] })), total: answer.total }));
}

export function getGrantedUsersQueryOptions(query: PageQuery, lang: string) {
  return queryOptions({
    queryKey: [...sharingKey, 'granted-users', query, lang],
    queryFn: ({ signal }) => getGrantedUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useGrantedUsers(query: PageQuery) {
  return useQuery(getGrantedUsersQueryOptions(query, useLang()));
}
