import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { AppCandidate, AppType, JobCounts, LabApp } from '../types';
import { appsKey, modelsKey } from './keys';

const NO_JOBS: JobCounts = { queued: 0, running: 0, done: 0, failed: 0 };

function normalizeApp(app: LabApp): LabApp {
  return { ...app, elements: listOf(app.elements), deviceIds: listOf(app.deviceIds), devices: listOf(app.devices), jobs: app.jobs ?? NO_JOBS };
}

/** The caller's applications, newest first, with their model, devices and runs by state. */
export function getApps(signal?: AbortSignal): Promise<LabApp[]> {
  return api.get<LabApp[] | null>('/ailab/applications', { signal }).then((list) => listOf(list).map(normalizeApp));
}

export function getAppsQueryOptions() {
  return queryOptions({ queryKey: [...appsKey, 'list'], queryFn: ({ signal }) => getApps(signal) });
}

export function useApps() {
  return useQuery(getAppsQueryOptions());
}

/** The caller's own devices an application of the type may watch, each with the published application watching it. */
export function useAppDevices(type: AppType | undefined) {
  return useQuery({
    queryKey: [...appsKey, 'devices', type],
    queryFn: ({ signal }) => api.get<AppCandidate[] | null>('/ailab/applications/devices', { params: { type }, signal }).then(listOf),
    enabled: type !== undefined,
  });
}

/** An application's form: elements named by identifier (their name and unit are the model's). */
export interface AppForm {
  name: string;
  mediumName: string;
  description: string;
  type: AppType;
  modelId: number;
  elements: { identifier: string }[];
  deviceIds: number[];
}

function useAppMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<LabApp | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // A model an application runs cannot be deleted: the models page reads that again too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: appsKey }), queryClient.invalidateQueries({ queryKey: modelsKey })]),
  });
}

export function useCreateApp() {
  return useAppMutation((body: AppForm) => api.post<LabApp>('/ailab/applications', body).then(normalizeApp));
}

export function useUpdateApp() {
  return useAppMutation(({ id, ...body }: AppForm & { id: number }) => api.put<LabApp>(`/ailab/applications/${id}`, body).then(normalizeApp));
}

/** Publishes (runs on each new picture of its devices from now on) or withdraws an application. */
export function usePublishApp() {
  return useAppMutation(({ id, published }: { id: number; published: boolean }) =>
    api.put<LabApp>(`/ailab/applications/${id}/publish`, { published }).then(normalizeApp),
  );
}

/** Deletes an application; its detection records stay. */
export function useDeleteApp() {
  return useAppMutation((id: number) => api.delete<null>(`/ailab/applications/${id}`));
}

/** One application, as the server has it now (the edit form starts from it). */
export function useApp(id: number | undefined) {
  return useQuery({
    queryKey: [...appsKey, 'one', id],
    queryFn: ({ signal }) => api.get<LabApp>(`/ailab/applications/${id}`, { signal }).then(normalizeApp),
    enabled: id !== undefined,
  });
}
