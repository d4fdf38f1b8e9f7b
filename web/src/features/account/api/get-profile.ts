import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import type { Profile } from '../types';

/**
 * The logged-in account. Asked through /account/session, which answers null rather than an error
 * without a session (a browser would log a 401): that null becomes a 'session' ApiError here, and
 * RequireAuth takes the browser to the login page.
 */
export async function getProfile(signal?: AbortSignal): Promise<Profile> {
  const profile = await api.get<Profile | null>('/account/session', { signal });
  if (!profile) throw new ApiError({ kind: 'session', code: 2, status: 200, message: i18n.t('errors:pleaseLogIn') });
  return profile;
}

export function getProfileQueryOptions() {
  return queryOptions({
    queryKey: ['account', 'profile'],
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 5 * 60_000,
  });
}

export function useProfile() {
  return useQuery(getProfileQueryOptions());
}
