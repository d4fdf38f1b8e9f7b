import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { HistoryDim, HistoryResult, NodeAggregation } from './types';

export interface HistoryQuery {
  begin: number;
  end: number;
  params: string[];
  /** Depths; empty means every depth. */
  nodes?: number[];
  dim: HistoryDim;
  aggregated?: NodeAggregation;
  /** At most this many points per series (the server keeps each bucket's min and max). */
  points?: number;
}

export function getHistory(id: number, query: HistoryQuery, signal?: AbortSignal): Promise<HistoryResult> {
  return api.get<HistoryResult>(`/poi/${id}/datapoints/v3`, {
    signal,
    params: {
      begin: query.begin,
      end: query.end,
      params: query.params.join(','),
      nodes: query.nodes?.length ? query.nodes.join(',') : undefined,
      dim: query.dim,
      aggregated: query.aggregated && query.aggregated !== 'none' ? query.aggregated : undefined,
      points: query.points,
    },
  });
}

export function getHistoryQueryOptions(id: number, query: HistoryQuery) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'history', query),
    queryFn: ({ signal }) => getHistory(id, query, signal),
    staleTime: 60_000,
  });
}

/** Keeps showing the previous chart while a new range loads. */
export function useHistory(id: number, query: HistoryQuery, enabled = true) {
  return useQuery({
    ...getHistoryQueryOptions(id, query),
    enabled: enabled && query.params.length > 0,
    placeholderData: keepPreviousData,
  });
}
