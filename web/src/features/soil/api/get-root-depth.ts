import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { TimeRange } from '@/lib/time-range';
import type { RootDepth } from '../types';

export function normalizeRootDepth(data: RootDepth): RootDepth {
  return { ...data, layers: listOf(data.layers) };
}

/** GET /apis/poi/shang/rootdepth: how deep the roots drew water in one window. */
export function getRootDepth(deviceId: number, { begin, end }: TimeRange, signal?: AbortSignal): Promise<RootDepth> {
  return api.get<RootDepth>('/poi/shang/rootdepth', { params: { id: deviceId, begin, end }, signal }).then(normalizeRootDepth);
}

/** Past windows do not change; the page asks for several weeks of them at once. */
export function getRootDepthQueryOptions(deviceId: number, window: TimeRange) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'rootdepth', window.begin, window.end),
    queryFn: ({ signal }) => getRootDepth(deviceId, window, signal),
    staleTime: 10 * 60_000,
  });
}
