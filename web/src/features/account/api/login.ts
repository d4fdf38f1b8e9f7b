import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Profile } from '../types';
import { getProfileQueryOptions } from './get-profile';

export interface LoginInput {
  accountNumber: string;
  password: string;
}

export function login(input: LoginInput): Promise<Profile> {
  return api.post<Profile>('/account/login', input);
}

export function useLogin({ onSuccess }: { onSuccess?: (profile: Profile) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (profile) => {
      queryClient.setQueryData(getProfileQueryOptions().queryKey, profile);
      onSuccess?.(profile);
    },
  });
}
