import { useMutation, useQuery } from '@tanstack/react-query';
import { API_BASE, api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { ExportConfig, ExportRequest, ExportTask } from '../types';

/** How often a running export is asked about. */
export const EXPORT_POLL_MS = 1500;

export function getExportConfig(signal?: AbortSignal): Promise<ExportConfig> {
  return api.get<ExportConfig>('/export/config', { signal });
}

/** Whether this server mails exports; asked once the page may export. */
export function useExportConfig(enabled: boolean) {
  return useQuery({ queryKey: ['export', 'config'], queryFn: ({ signal }) => getExportConfig(signal), enabled, staleTime: Infinity });
}

/** Where the file of a `ready` export is downloaded from. */
export function exportFileUrl(id: number, taskId: string): string {
  return `${API_BASE}/poi/${id}/datapoints/export/${encodeURIComponent(taskId)}/file`;
}

/** Queues an export; the workbook is mailed, or kept for download, when it is ready. */
export function startExport(id: number, request: ExportRequest): Promise<{ taskId: string | number }> {
  return api.post<{ taskId: string | number }>(`/poi/${id}/datapoints/export`, request);
}

export function getExportTask(id: number, taskId: string, signal?: AbortSignal): Promise<ExportTask> {
  return api.get<ExportTask>(`/poi/${id}/datapoints/export/${encodeURIComponent(taskId)}`, { signal });
}

export function useStartExport(id: number) {
  return useMutation({ mutationFn: (request: ExportRequest) => startExport(id, request) });
}

export function isExportFinished(task: ExportTask | undefined): boolean {
  return task?.status === 'sent' || task?.status === 'ready' || task?.status === 'failed';
}

/** Polls a task until it is sent, ready or failed, or until `active` turns false (e.g. on timeout). */
export function useExportTask(id: number, taskId: string | null, active: boolean) {
  return useQuery({
    queryKey: poiKeys.plain(id, 'export', taskId),
    queryFn: ({ signal }) => getExportTask(id, taskId ?? '', signal),
    enabled: taskId !== null,
    refetchInterval: (query) => (active && !isExportFinished(query.state.data) ? EXPORT_POLL_MS : false),
    retry: 2,
    gcTime: 0,
  });
}
