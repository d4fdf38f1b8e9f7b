import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useLang } from '@/lib/use-lang';
import type { LinkDescription } from '../types';

/** What a link offers; anyone may ask, logged in or not. */
export function getLink(id: string, signal?: AbortSignal): Promise<LinkDescription> {
  return api.get<LinkDescription>(`/device/credential/${encodeURIComponent(id)}`, { signal });
}

export function getLinkQueryOptions(id: string, lang: string) {
  return queryOptions({
    // Not under sharingKey: accepting refreshes the lists, while the page keeps the link it showed.
    queryKey: ['sharing-link', id, lang],
    queryFn: ({ signal }) => getLink(id, signal),
  });
}

export function useLink(id: string) {
  return useQuery({ ...getLinkQueryOptions(id, useLang()), enabled: id !== '' });
}
