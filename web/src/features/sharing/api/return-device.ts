import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { devicesListKey, poiKey, sharingKey } from './keys';

/** Gives back a device someone shared with me: I no longer see it. */
export function returnDevice(poiId: number): Promise<null> {
  return api.delete<null>(`/authorized/devices/${poiId}`);
}

export function useReturnDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: returnDevice,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharingKey }),
        queryClient.invalidateQueries({ queryKey: devicesListKey }),
        queryClient.invalidateQueries({ queryKey: poiKey }),
      ]),
  });
}
