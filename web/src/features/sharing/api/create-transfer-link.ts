import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ShareLink } from '../types';

export interface TransferLinkInput {
  poiIds: number[];
}

/** A link that gives the devices' ownership to whoever accepts it. */
export function createTransferLink(input: TransferLinkInput): Promise<ShareLink> {
  return api.put<ShareLink>('/transfer/credential', input);
}

export function useCreateTransferLink() {
  return useMutation({ mutationFn: createTransferLink });
}
