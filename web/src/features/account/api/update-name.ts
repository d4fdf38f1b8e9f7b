import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Profile } from '../types';
import { getProfileQueryOptions } from './get-profile';

export interface UpdateNameInput {
  name: string;
}

export function updateName(input: UpdateNameInput): Promise<Profile> {
  return api.put<Profile>('/account/name', input);
}

export function useUpdateName({ onSuccess }: { onSuccess?: (profile: Profile) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateName,
    onSuccess: (profile) => {
      queryClient.setQueryData(getProfileQueryOptions().queryKey, profile);
      onSuccess?.(profile);
    },
  });
}
