import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Profile } from '../types';

export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return api.get<Profile>('/account/profile', { signal });
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
