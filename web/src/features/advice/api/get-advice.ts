import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { listOf } from '@/lib/page';
import type { Feedback, Reality, Strategy, Task } from '../types';
import { fieldParam, historyKey, realityKey, strategyKey, todayKey, type FieldChoice } from './keys';

/** Days of task history the page lists. */
export const HISTORY_DAYS = 30;

function fieldKey(field: FieldChoice) {
  return [field.lead, fieldParam(field) ?? ''] as const;
}

/** Go sends empty lists as null: the views read them as []. */
function normalTask(task: Task): Task {
  return { ...task, steps: listOf(task.steps), facts: { ...task.facts, sources: listOf(task.facts?.sources) } };
}

export interface Today {
  day: string;
  tasks: Task[];
}

/** GET /apis/ai/task/today/{id}: today's tasks of the field, proposed (and recorded) as it is asked. */
export function getTodayQueryOptions(field: FieldChoice, lang: Language) {
  return queryOptions({
    queryKey: [...todayKey, ...fieldKey(field), lang],
    queryFn: ({ signal }) =>
      api.get<Today>(`/ai/task/today/${field.lead}`, { params: { field: fieldParam(field) }, signal }).then((t) => ({ ...t, tasks: listOf(t.tasks).map(normalTask) })),
  });
}

export function useToday(field: FieldChoice | null, lang: Language) {
  return useQuery({ ...getTodayQueryOptions(field ?? { lead: 0, others: [] }, lang), enabled: field !== null });
}

/**
 * GET /apis/ai/task/list/{id}: the device's tasks of the last days, newest first. Asked once
 * today's tasks have been (asking for them records them), and again whenever they are asked anew:
 * `todayAt` is when today's answer came.
 */
export function useTaskHistory(device: number | null, lang: Language, todayAt: number) {
  return useQuery<Task[]>({
    queryKey: [...historyKey, device, lang, todayAt],
    queryFn: ({ signal }) =>
      api.get<{ list: Task[] | null }>(`/ai/task/list/${device}`, { params: { days: HISTORY_DAYS }, signal }).then((a) => listOf(a.list).map(normalTask)),
    enabled: device !== null && todayAt > 0,
    // The rows stay while the list is asked again after an answer.
    placeholderData: keepPreviousData,
  });
}

/** GET /apis/ai/reality/{id}: the field now, each fact with its readings. */
export function useReality(field: FieldChoice | null, lang: Language) {
  return useQuery({
    queryKey: [...realityKey, ...(field ? fieldKey(field) : []), lang],
    queryFn: ({ signal }) => api.get<Reality>(`/ai/reality/${field!.lead}`, { params: { field: fieldParam(field!) }, signal }),
    enabled: field !== null,
  });
}

/** GET /apis/ai/strategy: the season plan. */
export function useStrategy(field: FieldChoice | null, lang: Language) {
  return useQuery({
    queryKey: [...strategyKey, ...(field ? fieldKey(field) : []), lang],
    queryFn: ({ signal }) =>
      api.get<Strategy>('/ai/strategy', { params: { id: field!.lead, field: fieldParam(field!) }, signal }).then((s) => ({
        ...s,
        stages: listOf(s.stages),
        irrigation: listOf(s.irrigation),
        risks: listOf(s.risks),
        missing: listOf(s.missing),
      })),
    enabled: field !== null,
  });
}

export interface FeedbackInput {
  taskId: number;
  status: Feedback;
  note: string;
}

/** POST /apis/ai/task/feedback: the farmer's answer on a task; today's list and the history follow. */
export function useTaskFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeedbackInput) => api.post<Task>('/ai/task/feedback', input).then(normalTask),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: todayKey }), queryClient.invalidateQueries({ queryKey: historyKey })]),
  });
}
