import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Device } from '../types';
import { devicesKey } from './get-devices';

export interface BindDeviceInput {
  /** The label's code, as GET /apis/poi/scan took it. */
  code: string;
  name: string;
}

/** Makes the caller the owner of the free device a label names (PUT /apis/poi/scan/bind). */
export function bindDevice(input: BindDeviceInput): Promise<Device> {
  return api.put<Device>('/poi/scan/bind', input);
}

export function useBindDevice({ onSuccess }: { onSuccess?: (device: Device) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bindDevice,
    onSuccess: async (device) => {
      onSuccess?.(device);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: devicesKey }),
        queryClient.invalidateQueries({ queryKey: ['label'] }),
      ]);
    },
  });
}
