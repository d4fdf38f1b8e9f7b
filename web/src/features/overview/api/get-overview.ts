import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

export const ATTENTION_REASONS = ['fault', 'offline', 'lowBattery', 'gap'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export interface OverviewType {
  typeId: number;
  slave: boolean;
  name: string;
  model: string;
  category: string;
  total: number;
  status: Record<string, number>;
}

/** A device needing attention: the fields of the device list's, as far as the overview shows them. */
export interface AttentionDevice {
  id: number;
  hashId: string;
  sn: string;
  name: string;
  typeName: string;
  page: string;
  status: string;
  statusName: string;
  battery: number | null;
  lastReportTime: number | null;
  faults: number[];
  reasons: AttentionReason[];
  gapFrom: number | null;
  gapTo: number | null;
}

/** A device and its figure: the wettest gauge, the station of the lowest ET0. */
export interface Place {
  id: number;
  hashId: string;
  page: string;
  name: string;
  value: number;
}

export interface Amount {
  day: string;
  devices: number;
  mean: number | null;
  min: Place | null;
  max: Place | null;
  wet?: number;
  complete: boolean;
}

export interface ChannelHealth {
  id: number;
  name: string;
  kind: 'channel' | 'app';
  enabled: boolean;
  pending: number;
  overdue: number;
  failed: number;
  lastError: string;
  lastFail: number | null;
  health: 'ok' | 'failing' | 'late' | 'off';
}

/** GET /apis/overview: the caller's fleet at a glance. */
export interface Overview {
  generatedAt: number;
  hours: number;
  devices: { total: number; status: Record<string, number>; types: OverviewType[] };
  attention: { total: number; counts: Record<AttentionReason, number>; devices: AttentionDevice[] };
  alerts: { total: number; levels: Record<string, number>; devices: number; hourly: number[] };
  rain: Amount;
  et0: Amount;
  push: { channels: ChannelHealth[]; failing: number };
}

/** How often the overview refreshes itself while open. */
export const OVERVIEW_REFRESH_MS = 60_000;

export function useOverview(lang: Language) {
  return useQuery({
    queryKey: ['overview', lang],
    queryFn: ({ signal }) => api.get<Overview>('/overview', { signal }),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}
