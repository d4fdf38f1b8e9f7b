import { isApiError } from '@/lib/api-client';
import { CODE_LINK_UNAVAILABLE } from './types';

/** The server says the link expired, was used, is one's own, or never existed. */
export function isLinkUnavailable(error: unknown): boolean {
  return isApiError(error) && (error.code === CODE_LINK_UNAVAILABLE || error.status === 404 || error.code === 1404);
}
