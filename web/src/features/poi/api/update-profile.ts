import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { DeviceProfile } from '../types';
import { getProfileQueryOptions } from './get-profile';

/** Replaces the whole profile: send every field, not only the changed ones. */
export function updateProfile(id: number, profile: DeviceProfile): Promise<DeviceProfile> {
  return api.put<DeviceProfile>(`/poi/${id}/profile`, profile);
}

export function useUpdateProfile(id: number, { onSuccess }: { onSuccess?: (profile: DeviceProfile) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (profile: DeviceProfile) => updateProfile(id, profile),
    onSuccess: async (profile) => {
      queryClient.setQueryData(getProfileQueryOptions(id).queryKey, profile);
      // The name and place also show in the header, which is cached under the info queries.
      await queryClient.invalidateQueries({ queryKey: ['poi', 'info'] });
      onSuccess?.(profile);
    },
  });
}
