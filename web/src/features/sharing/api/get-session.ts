import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Who is logged in, as far as a public page needs to know. */
export interface SessionAccount {
  accountNumber: string;
  name: string;
}

/**
 * The logged-in account, or null when there is none. A public page asks this to offer a login
 * instead of an action; a missing session is an answer here, not an error.
 */
export function getSession(signal?: AbortSignal): Promise<SessionAccount | null> {
  return api.get<SessionAccount | null>('/account/session', { signal });
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
