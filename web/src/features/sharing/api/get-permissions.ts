import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Permission } from '../types';
import { sharingKey } from './keys';

export interface PermissionQuery {
  poiId: number;
  /** A grantee of my device; without it, the caller's own rights. */
  uid?: number;
}

export function getPermissions({ poiId, uid }: PermissionQuery, signal?: AbortSignal): Promise<Permission> {
  return api.get<Permission>('/poi/query/permissions', { params: { poiId, uid }, signal });
}

export function getPermissionsQueryOptions(query: PermissionQuery) {
  return queryOptions({
    queryKey: [...sharingKey, 'permissions', query.poiId, query.uid ?? null],
    queryFn: ({ signal }) => getPermissions(query, signal),
  });
}

export function usePermissions(query: PermissionQuery) {
  return useQuery(getPermissionsQueryOptions(query));
}
