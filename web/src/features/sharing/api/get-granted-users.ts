import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf, toPage, type Page, type PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { GrantedUser } from '../types';
import { sharingKey } from './keys';

/** Everyone I share devices with, each with those devices and their rights. */
export function getGrantedUsers({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<GrantedUser>> {
  return api
    .get<Page<GrantedUser>>('/granted/users', { params: { page, size }, signal })
    .then((answer) => toPage(answer, (user) => ({ ...user, devices: listOf(user.devices) })));
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
