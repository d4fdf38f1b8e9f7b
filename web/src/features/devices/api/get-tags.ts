import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Tag } from '../types';

export function getTags(signal?: AbortSignal): Promise<Tag[]> {
  return api.get<Tag[]>('/tags', { signal });
}

export function getTagsQueryOptions() {
  return queryOptions({
    queryKey: ['tags'],
    queryFn: ({ signal }) => getTags(signal),
  });
}

export function useTags() {
  return useQuery(getTagsQueryOptions());
}
