import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toPage, type Page, type PageQuery } from '@/lib/page';
import type { OpenApp } from '../types';
import { appsKey } from './keys';

export function normalizeApp(app: OpenApp): OpenApp {
  return { ...app, pushUrl: app.pushUrl ?? '', deviceIds: app.deviceIds ?? [] };
}

/** The caller's open-API applications. */
export function getApps({ page, size }: PageQuery, signal?: AbortSignal): Promise<Page<OpenApp>> {
  return api
    .get<Page<OpenApp>>('/openapi/applications', { params: { page, size }, signal })
    .then((answer) => toPage(answer, normalizeApp));
}

export function getAppsQueryOptions(query: PageQuery) {
  return queryOptions({
    queryKey: [...appsKey, 'list', query],
    queryFn: ({ signal }) => getApps(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useApps(query: PageQuery) {
  return useQuery(getAppsQueryOptions(query));
}
