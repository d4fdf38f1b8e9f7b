import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceConfig } from '../types';
import { getConfigQueryOptions } from './get-config';

/** Takes effect at the device's next report. */
export function updateConfig(id: number, config: DeviceConfig): Promise<DeviceConfig> {
  return api.put<DeviceConfig>(`/poi/${id}/config`, config);
}

export function useUpdateConfig(id: number, { onSuccess }: { onSuccess?: (config: DeviceConfig) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: DeviceConfig) => updateConfig(id, config),
    onSuccess: async (config) => {
      queryClient.setQueryData(getConfigQueryOptions(id).queryKey, config);
      // The effective interval shows in the intro and the header.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: poiKeys.device(id) }),
        queryClient.invalidateQueries({ queryKey: ['poi', 'info'] }),
      ]);
      onSuccess?.(config);
    },
  });
}
