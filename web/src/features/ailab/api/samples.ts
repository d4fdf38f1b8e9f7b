import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, API_BASE } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { Label, Sample } from '../types';
import { samplesKey, setsKey } from './keys';

function normalizeSample(sample: Sample): Sample {
  return { ...sample, labels: listOf(sample.labels) };
}

/** The caller's samples, newest first. */
export function getSamples(signal?: AbortSignal): Promise<Sample[]> {
  return api.get<Sample[] | null>('/ailab/samples', { signal }).then((list) => listOf(list).map(normalizeSample));
}

export function getSamplesQueryOptions() {
  return queryOptions({ queryKey: [...samplesKey, 'list'], queryFn: ({ signal }) => getSamples(signal) });
}

export function useSamples() {
  return useQuery(getSamplesQueryOptions());
}

export function getSample(id: number, signal?: AbortSignal): Promise<Sample> {
  return api.get<Sample>(`/ailab/samples/${id}`, { signal }).then(normalizeSample);
}

export function useSample(id: number) {
  return useQuery({ queryKey: [...samplesKey, 'one', id], queryFn: ({ signal }) => getSample(id, signal) });
}

/** The address of a sample's picture. */
export function sampleImageSrc(sample: Pick<Sample, 'id'>): string {
  return `${API_BASE}/ailab/samples/${sample.id}/image`;
}

function useSampleMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: samplesKey }), queryClient.invalidateQueries({ queryKey: setsKey })]),
  });
}

/** Makes a sample of a camera picture (the same sample when it already is one). */
export function useSampleFromPicture() {
  return useSampleMutation((body: { deviceId: number; imageId: number }) => api.post<Sample>('/ailab/samples', body));
}

export interface UploadSample {
  file: Blob;
  tag: string;
  location: string;
}

/** Uploads a JPEG or PNG as a sample; the server tells what the file is from its bytes. */
export function useUploadSample() {
  return useSampleMutation(({ file, tag, location }: UploadSample) =>
    api.upload<Sample>('/ailab/samples/upload', file, { params: { tag: tag || undefined, location: location || undefined } }),
  );
}

export interface SampleUpdate {
  id: number;
  tag: string;
  location: string;
  labels: Label[];
}

export function updateSample({ id, ...body }: SampleUpdate): Promise<Sample> {
  return api.put<Sample>(`/ailab/samples/${id}`, body).then(normalizeSample);
}

export function useUpdateSample() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSample,
    onSuccess: (saved) => {
      queryClient.setQueryData([...samplesKey, 'one', saved.id], saved);
      return queryClient.invalidateQueries({ queryKey: [...samplesKey, 'list'] });
    },
  });
}

export function useDeleteSample() {
  return useSampleMutation((id: number) => api.delete<null>(`/ailab/samples/${id}`));
}
