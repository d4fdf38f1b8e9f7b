import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download, type QueryParams } from '@/lib/api-client';
import { listOf, toPage, type Page } from '@/lib/page';
import type { DetectionRecord } from '../types';
import { recordsKey } from './keys';

/** What the detection history is narrowed to; times in milliseconds, begin included, end excluded. */
export interface RecordFilter {
  deviceId?: number;
  appId?: number;
  begin?: number;
  end?: number;
}

function filterParams(filter: RecordFilter): QueryParams {
  return { deviceId: filter.deviceId, appId: filter.appId, begin: filter.begin, end: filter.end };
}

function normalizeRecord(record: DetectionRecord): DetectionRecord {
  return { ...record, packages: listOf(record.packages) };
}

/** One page of the caller's detection records, newest first. */
export function getRecords(filter: RecordFilter, page: number, size: number, signal?: AbortSignal): Promise<Page<DetectionRecord>> {
  return api
    .get<Page<DetectionRecord>>('/fw/detectReports', { params: { ...filterParams(filter), page, size }, signal })
    .then((answer) => toPage(answer, normalizeRecord));
}

export function useRecords(filter: RecordFilter, page: number, size: number) {
  return useQuery({
    queryKey: [...recordsKey, 'list', filter, page, size],
    queryFn: ({ signal }) => getRecords(filter, page, size, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDeleteRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/fw/detectReports/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey }),
  });
}

/** The records the filter selects as an XLSX workbook, in the caller's language. */
export function useDownloadRecords() {
  return useMutation({ mutationFn: (filter: RecordFilter) => download('/fw/detectReports/download', { params: filterParams(filter) }) });
}
