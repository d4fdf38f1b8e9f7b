import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Tag } from '../types';
import { getTagsQueryOptions } from './get-tags';

export function createTag(tag: string): Promise<Tag> {
  return api.post<Tag>('/tag', { tag });
}

export function useCreateTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getTagsQueryOptions().queryKey }),
  });
}
