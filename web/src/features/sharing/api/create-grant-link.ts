import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Purview, ShareLink } from '../types';
import { sharingKey } from './keys';

export interface GrantLinkInput {
  poiIds: number[];
  purview: Purview;
}

/** A link that shares the devices with whoever accepts it, with the given rights. */
export function createGrantLink(input: GrantLinkInput): Promise<ShareLink> {
  return api.put<ShareLink>('/grant/credential', input);
}

export function useCreateGrantLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGrantLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKey }),
  });
}
