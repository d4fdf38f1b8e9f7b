import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sharingKey } from './keys';

/** Stops sharing one of my devices with everyone. */
export function revokeDevice(poiId: number): Promise<null> {
  return api.delete<null>(`/granted/devices/${poiId}`);
}

export function useRevokeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKey }),
  });
}
