import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AcceptResult } from '../types';
import { devicesListKey, poiKey, sharingKey } from './keys';

/** Accepts a grant or transfer link; the devices then appear in the caller's list. */
export function acceptLink(id: string): Promise<AcceptResult> {
  return api.post<AcceptResult>(`/grant/accept/${encodeURIComponent(id)}`);
}

export function useAcceptLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptLink,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharingKey }),
        queryClient.invalidateQueries({ queryKey: devicesListKey }),
        queryClient.invalidateQueries({ queryKey: poiKey }),
      ]),
  });
}
