import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { devicesKey } from './get-devices';

export function removeDeviceTag({ deviceId, tagId }: { deviceId: number; tagId: number }): Promise<null> {
  return api.delete<null>(`/poi/${deviceId}/tag/${tagId}`);
}

export function useRemoveDeviceTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDeviceTag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}
