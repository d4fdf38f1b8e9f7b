import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Grantee, Purview } from '../types';
import { sharingKey } from './keys';

export interface UpdatePermissionsInput {
  poiId: number;
  uid: number;
  purview: Purview;
}

/** Changes what one account may do with one of my devices. */
export function updatePermissions(input: UpdatePermissionsInput): Promise<Grantee> {
  return api.put<Grantee>('/poi/modify/permissions', input);
}

export function useUpdatePermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePermissions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKey }),
  });
}
