import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sharingKey } from './keys';

/** Stops sharing every one of my devices with this account. */
export function revokeUser(uid: number): Promise<null> {
  return api.delete<null>(`/granted/users/${uid}`);
}

export function useRevokeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKey }),
  });
}
