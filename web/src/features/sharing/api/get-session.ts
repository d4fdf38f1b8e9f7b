import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';

/** Who is logged in, as far as a public page needs to know. */
export interface SessionAccount {
  accountNumber: string;
  name: string;
}

/**
 * The logged-in account, or null when there is none. A public page asks this to offer a login
 * instead of an action; unlike other calls, a missing session does not leave the page.
 */
export async function getSession(signal?: AbortSignal): Promise<SessionAccount | null> {
  try {
    return await api.get<SessionAccount>('/account/profile', { signal, stayOnSessionExpiry: true });
  } catch (error) {
    if (isApiError(error) && error.kind === 'session') return null;
    throw error;
  }
}

export function getSessionQueryOptions() {
  return queryOptions({
    queryKey: ['sharing-session'],
    queryFn: ({ signal }) => getSession(signal),
    // Logging in happens on another page; coming back must ask again.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useSession() {
  return useQuery(getSessionQueryOptions());
}
