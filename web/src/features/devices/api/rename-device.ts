import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DeviceProfile } from '../types';
import { getDeviceProfile, getDeviceProfileQueryOptions } from './get-device-profile';
import { devicesKey } from './get-devices';

export interface RenameDeviceInput {
  deviceId: number;
  name: string;
}

/**
 * Renames a device. PUT /apis/poi/{id}/profile replaces the whole profile, so the current one is
 * read first and sent back with only the name changed.
 */
export async function renameDevice({ deviceId, name }: RenameDeviceInput): Promise<DeviceProfile> {
  const profile = await getDeviceProfile(deviceId);
  return api.put<DeviceProfile>(`/poi/${deviceId}/profile`, { ...profile, name });
}

export function useRenameDevice({ onSuccess }: { onSuccess?: (profile: DeviceProfile) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameDevice,
    onSuccess: async (profile, { deviceId }) => {
      queryClient.setQueryData(getDeviceProfileQueryOptions(deviceId).queryKey, profile);
      onSuccess?.(profile);
      await queryClient.invalidateQueries({ queryKey: devicesKey });
    },
  });
}
