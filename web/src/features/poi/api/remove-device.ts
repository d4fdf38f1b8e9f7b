import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';

/** Removes a device from its owner's account and erases its data (DELETE /apis/poi/{id}/remove). */
export function removeDevice(id: number): Promise<void> {
  return api.delete<void>(`/poi/${id}/remove`);
}

export function useRemoveDevice(id: number, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeDevice(id),
    onSuccess: async () => {
      onSuccess?.();
      queryClient.removeQueries({ queryKey: poiKeys.device(id) });
      // Lists, the map, shares and rules all named it.
      await queryClient.invalidateQueries();
    },
  });
}
