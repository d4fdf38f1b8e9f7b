import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ConnectionData } from '../types';
import { pushKey } from './keys';

/** What a channel's receiver gets: method, headers, signature scheme, retries and an example body. */
export function getConnectionData(id: number, signal?: AbortSignal): Promise<ConnectionData> {
  return api.get<ConnectionData>('/integration/channel/getConnectionData', { params: { id }, signal });
}

export function getConnectionDataQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...pushKey, 'connection', id],
    queryFn: ({ signal }) => getConnectionData(id, signal),
  });
}

export function useConnectionData(id: number | null) {
  return useQuery({ ...getConnectionDataQueryOptions(id ?? 0), enabled: id !== null });
}
