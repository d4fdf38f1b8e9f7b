import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { Element } from '../types';
import { elementsKey } from './keys';

export function getElements(signal?: AbortSignal): Promise<Element[]> {
  return api.get<Element[] | null>('/ailab/elements', { signal }).then(listOf);
}

export function getElementsQueryOptions() {
  return queryOptions({ queryKey: elementsKey, queryFn: ({ signal }) => getElements(signal) });
}

/** The caller's elements: what labels name. */
export function useElements() {
  return useQuery(getElementsQueryOptions());
}

export type NewElement = Omit<Element, 'id'>;

export function useCreateElement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (element: NewElement) => api.post<Element>('/ailab/elements', element),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: elementsKey }),
  });
}

export function useDeleteElement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/ailab/elements/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: elementsKey }),
  });
}
