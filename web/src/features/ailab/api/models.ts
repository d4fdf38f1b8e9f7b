import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { Model, ModelTest } from '../types';
import { modelsKey, samplesKey, setsKey } from './keys';

/** The built-in insect counter's package, as the server ships it. */
export const BUILTIN_COUNTER_PATH = '/ailab/models/builtin/insect-counter.l5d';
export const BUILTIN_COUNTER_FILE = 'insect-counter.l5d';

/** Only this many samples go into one test (the server's limit). */
export const MAX_TEST_SAMPLES = 20;

function normalizeModel(model: Model): Model {
  return {
    ...model,
    operators: listOf(model.operators),
    manifest: { ...model.manifest, elements: listOf(model.manifest?.elements) },
  };
}

/** The caller's models, newest first. */
export function getModels(signal?: AbortSignal): Promise<Model[]> {
  return api.get<Model[] | null>('/ailab/models', { signal }).then((list) => listOf(list).map(normalizeModel));
}

export function getModelsQueryOptions() {
  return queryOptions({ queryKey: [...modelsKey, 'list'], queryFn: ({ signal }) => getModels(signal) });
}

export function useModels() {
  return useQuery(getModelsQueryOptions());
}

/** Uploads an .l5d as multipart part "file"; the server checks the manifest and the graph before keeping it. */
export function useUploadModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return api.post<Model>('/ailab/models', form).then(normalizeModel);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelsKey }),
  });
}

export function useDeleteModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/ailab/models/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelsKey }),
  });
}

/** Downloads a model's package as uploaded. */
export function useDownloadModel() {
  return useMutation({ mutationFn: (model: Model) => download(`/ailab/models/${model.id}/file`) });
}

/** Downloads the built-in insect counter's package, to upload like any other. */
export function useDownloadBuiltin() {
  return useMutation({ mutationFn: () => download(BUILTIN_COUNTER_PATH) });
}

export type TestInput = { modelId: number } & ({ sampleIds: number[] } | { setId: number });

/** Runs a model on chosen samples or on a set version's (which is used from then on). */
export function useTestModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ modelId, ...body }: TestInput) =>
      api.post<ModelTest>(`/ailab/models/${modelId}/test`, body).then((test) => ({
        ...test,
        outputs: listOf(test.outputs).map((output) => ({ ...output, values: listOf(output.values), boxes: listOf(output.boxes), raw: listOf(output.raw) })),
      })),
    onSuccess: (_, input) => ('setId' in input ? queryClient.invalidateQueries({ queryKey: setsKey }) : undefined),
    // A sample or set gone meanwhile is the likeliest refusal: the lists are read again.
    onError: () => Promise.all([queryClient.invalidateQueries({ queryKey: samplesKey }), queryClient.invalidateQueries({ queryKey: setsKey })]),
  });
}
