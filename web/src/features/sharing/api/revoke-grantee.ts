import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sharingKey } from './keys';

export interface RevokeGranteeInput {
  poiId: number;
  uid: number;
}

/** Stops sharing one of my devices with one account. */
export function revokeGrantee({ poiId, uid }: RevokeGranteeInput): Promise<null> {
  return api.delete<null>(`/poi/${poiId}/authorized`, { params: { uid } });
}

export function useRevokeGrantee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeGrantee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKey }),
  });
}
