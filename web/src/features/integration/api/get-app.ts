import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OpenApp } from '../types';
import { normalizeApp } from './get-apps';
import { appsKey } from './keys';

export function getApp(id: number, signal?: AbortSignal): Promise<OpenApp> {
  return api.get<OpenApp>(`/openapi/application/${id}`, { signal }).then(normalizeApp);
}

export function getAppQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...appsKey, 'app', id],
    queryFn: ({ signal }) => getApp(id, signal),
  });
}

export function useApp(id: number | null) {
  return useQuery({ ...getAppQueryOptions(id ?? 0), enabled: id !== null });
}
