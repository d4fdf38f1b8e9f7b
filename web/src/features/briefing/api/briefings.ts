import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download } from '@/lib/api-client';
import type { Page, PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';
import type { Candidate, Job, Preset, PresetInput, Report, Template } from '../types';

/** Every briefing query starts with this key, so a saved preset refreshes the list. */
export const briefingsKey = ['briefings'] as const;

export function useBriefings(query: PageQuery) {
  const lang = useLang();
  return useQuery(
    queryOptions({
      queryKey: [...briefingsKey, 'list', query, lang],
      queryFn: ({ signal }) => api.get<Page<Preset>>('/soil_moisture/briefing', { params: { ...query }, signal }),
      placeholderData: keepPreviousData,
    }),
  );
}

export function useBriefing(id: number | null) {
  return useQuery({
    queryKey: [...briefingsKey, 'one', id],
    queryFn: ({ signal }) => api.get<Preset>(`/soil_moisture/briefing/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useTemplates() {
  const lang = useLang();
  return useQuery({
    queryKey: [...briefingsKey, 'templates', lang],
    queryFn: ({ signal }) => api.get<Template[]>('/soil_moisture/template', { signal }),
    staleTime: Infinity,
  });
}

export function useCandidates(enabled = true) {
  const lang = useLang();
  return useQuery({
    queryKey: [...briefingsKey, 'candidates', lang],
    queryFn: ({ signal }) => api.get<Candidate[]>('/soil_moisture/briefing/device', { signal }),
    enabled,
  });
}

export function useReport(id: number | null) {
  const lang = useLang();
  return useQuery({
    queryKey: [...briefingsKey, 'report', id, lang],
    queryFn: ({ signal }) => api.get<Report>(`/soil_moisture/briefing/${id}/report`, { signal }),
    enabled: id !== null,
  });
}

export function useSavePreset({ onSuccess }: { onSuccess?: (preset: Preset) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: PresetInput }) =>
      id === null ? api.post<Preset>('/soil_moisture/briefing', input) : api.put<Preset>(`/soil_moisture/briefing/${id}`, input),
    onSuccess: async (preset) => {
      onSuccess?.(preset);
      await queryClient.invalidateQueries({ queryKey: briefingsKey });
    },
  });
}

export function useDeletePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/soil_moisture/briefing/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: briefingsKey }),
  });
}

export function useSetSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => api.put<Preset>(`/soil_moisture/briefing/${id}/schedule`, { enabled }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: briefingsKey }),
  });
}

export function startExport(id: number, format: 'pdf' | 'xlsx'): Promise<Job> {
  return api.post<Job>(`/soil_moisture/briefing/${id}/export`, { format });
}

export function getJob(taskId: string): Promise<Job> {
  return api.get<Job>(`/soil_moisture/export/${taskId}`);
}

export function downloadJob(taskId: string) {
  return download(`/soil_moisture/export/${taskId}/file`);
}
