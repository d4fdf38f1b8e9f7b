import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { EtRoot } from '../types';
import { normalizeRootDepth } from './get-root-depth';

/** GET /apis/poi/analysis/et_root: the root zone's water, today's ETc and when to irrigate next. */
export function getEtRoot(deviceId: number, signal?: AbortSignal): Promise<EtRoot> {
  return api
    .get<EtRoot>('/poi/analysis/et_root', { params: { id: deviceId }, signal })
    .then((data) => ({ ...data, rootDepth: data.rootDepth ? normalizeRootDepth(data.rootDepth) : null }));
}

export function getEtRootQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'et-root'),
    queryFn: ({ signal }) => getEtRoot(deviceId, signal),
  });
}

export function useEtRoot(deviceId: number) {
  return useQuery(getEtRootQueryOptions(deviceId));
}
