import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OpenApp, Page } from '../types';
import { appsKey } from './keys';

export interface AppListQuery {
  page: number;
  size: number;
}

export function normalizeApp(app: OpenApp): OpenApp {
  return { ...app, pushUrl: app.pushUrl ?? '', deviceIds: app.deviceIds ?? [] };
}

/** The caller's open-API applications. */
export function getApps({ page, size }: AppListQuery, signal?: AbortSignal): Promise<Page<OpenApp>> {
  return api
    .get<Page<OpenApp>>('/openapi/applications', { params: { page, size }, signal })
    .then((answer) => ({ list: (answer.list ?? []).map(normalizeApp), total: answer.total }));
}

export function getAppsQueryOptions(query: AppListQuery) {
  return queryOptions({
    queryKey: [...appsKey, 'list', query],
    queryFn: ({ signal }) => getApps(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useApps(query: AppListQuery) {
  return useQuery(getAppsQueryOptions(query));
}
