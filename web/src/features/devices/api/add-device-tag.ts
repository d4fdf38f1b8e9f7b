import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Tag } from '../types';
import { devicesKey } from './get-devices';
import { getTagsQueryOptions } from './get-tags';

/** One of the account's tags by id, or a tag by name, made if the account has none of that name. */
export type DeviceTagInput = { deviceId: number } & ({ tagId: number } | { tag: string });

/**
 * Puts a tag on a device; the server refuses a fourth ('Up to 3 tags can be added per device!').
 * A new name is made and put on in one transaction, so a refusal leaves no tag behind.
 */
export function addDeviceTag({ deviceId, ...tag }: DeviceTagInput): Promise<Tag[]> {
  return api.post<Tag[]>(`/poi/${deviceId}/tag`, tag);
}

export function useAddDeviceTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDeviceTag,
    onSuccess: (_tags, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: devicesKey }),
        'tag' in input ? queryClient.invalidateQueries({ queryKey: getTagsQueryOptions().queryKey }) : undefined,
      ]),
  });
}
