import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { devicesKey } from './get-devices';
import { getTagsQueryOptions } from './get-tags';

/** Deletes one of the account's tags; it comes off every device. */
export function deleteTag(tagId: number): Promise<null> {
  return api.delete<null>(`/tag/${tagId}`);
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getTagsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: devicesKey }),
      ]),
  });
}
