import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

/** One version of the console (GET /apis/system/versionHistory). */
export interface Version {
  version: string;
  date: string;
  notes: string[];
}

export function useVersionHistory(lang: Language) {
  return useQuery({
    queryKey: ['system', 'versionHistory', lang],
    queryFn: ({ signal }) => api.get<Version[]>('/system/versionHistory', { signal }),
    staleTime: Infinity,
  });
}
