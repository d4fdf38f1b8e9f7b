import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { SampleSet } from '../types';
import { setsKey } from './keys';

function normalizeSet(set: SampleSet): SampleSet {
  return { ...set, sampleIds: listOf(set.sampleIds) };
}

/** The caller's sample set versions, newest first. */
export function getSets(signal?: AbortSignal): Promise<SampleSet[]> {
  return api.get<SampleSet[] | null>('/ailab/sets', { signal }).then((list) => listOf(list).map(normalizeSet));
}

export function getSetsQueryOptions() {
  return queryOptions({ queryKey: [...setsKey, 'list'], queryFn: ({ signal }) => getSets(signal) });
}

export function useSets() {
  return useQuery(getSetsQueryOptions());
}

function useSetMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<SampleSet | null>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: setsKey }) });
}

export interface NewSet {
  name: string;
  description: string;
  sampleIds: number[];
}

export function useCreateSet() {
  return useSetMutation((body: NewSet) => api.post<SampleSet>('/ailab/sets', body).then(normalizeSet));
}

export interface SetUpdate {
  id: number;
  description: string;
  sampleIds: number[];
}

/** Edits a version in place while unused; a used one answers the next version instead. */
export function useUpdateSet() {
  return useSetMutation(({ id, ...body }: SetUpdate) => api.put<SampleSet>(`/ailab/sets/${id}`, body).then(normalizeSet));
}

export function useDeleteSet() {
  return useSetMutation((id: number) => api.delete<null>(`/ailab/sets/${id}`));
}

/** Downloads a version as a zip (YOLO labels and COCO annotations); it is used from then on. */
export function useExportSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: SampleSet) => download(`/ailab/sets/${set.id}/export`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: setsKey }),
  });
}
