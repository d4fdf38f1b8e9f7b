import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

/** Who holds a device, as a label scan tells the caller: never naming another account. */
export type LabelHolder = 'mine' | 'other' | 'free';

/** What GET /apis/poi/scan says of a label. */
export interface LabelScan {
  sn: string;
  typeId: number;
  typeName: string;
  model: string;
  holder: LabelHolder;
  bound: boolean;
  mine: boolean;
  /** A slave unit: bound with its host. */
  slave: boolean;
  /** The detail page kind. */
  page: string;
  /** Only for the caller's own device. */
  id?: number;
  hashId?: string;
  name?: string;
}

export function scanLabel(code: string, signal?: AbortSignal): Promise<LabelScan> {
  return api.get<LabelScan>('/poi/scan', { params: { code }, signal });
}

export function scanLabelQueryOptions(code: string, lang: Language) {
  return queryOptions({
    queryKey: ['label', code, lang],
    queryFn: ({ signal }) => scanLabel(code, signal),
    staleTime: 0,
    retry: false,
  });
}

export function useScanLabel(code: string, lang: Language) {
  return useQuery({ ...scanLabelQueryOptions(code, lang), enabled: code !== '' });
}
