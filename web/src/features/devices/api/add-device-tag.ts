import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Tag } from '../types';
import { devicesKey } from './get-devices';

export interface DeviceTagInput {
  deviceId: number;
  tagId: number;
}

/** Puts a tag on a device; the server refuses a fourth ('Up to 3 tags can be added per device!'). */
export function addDeviceTag({ deviceId, tagId }: DeviceTagInput): Promise<Tag[]> {
  return api.post<Tag[]>(`/poi/${deviceId}/tag`, { tagId });
}

export function useAddDeviceTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDeviceTag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}
