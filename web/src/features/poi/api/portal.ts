import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommandTarget } from './commands';
import { api, isApiError } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';
import type { LatestReading, ParamCatalogue } from '@/lib/telemetry/types';

/** The header a portal call carries its link's token in. */
export const PORTAL_TOKEN_HEADER = 'X-Portal-Token';

/** A portal link's token, from the page address's fragment (`#k=…`), which no request carries. */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('k') ?? '';
}

/**
 * The check parameters of /external-device/{checkParams}: "{sn}.{token}", the SN (letters, digits, dashes) and the token as the portal
 * link carries it (43 characters of base64url, which has no dot). Null when they are not that.
 */
export function parseCheckParams(checkParams: string): { sn: string; token: string } | null {
  const m = /^([A-Za-z0-9-]{6,32})\.([A-Za-z0-9_-]{43})$/.exec(checkParams);
  return m ? { sn: m[1], token: m[2] } : null;
}

/** The portal's state (SPEC §3): 0 when the page exists, else 404 with the notice to show. */
export interface PortalState {
  code: number;
  message: { title: string; content: string };
  redirect?: { to: string; seconds: number };
}

/** GET /apis/uni/device/{sn}: what the portal shows of a device. */
export interface PortalDevice {
  state: PortalState;
  device: {
    sn: string;
    name: string;
    typeName: string;
    model: string;
    category: string;
    status: string;
    statusName: string;
    battery: number | null;
    lowBattery: boolean;
    signal: number | null;
    lastReportTime: number | null;
  };
  latest: LatestReading[];
  allowControl: boolean;
  timezone: string;
}

/** GET /apis/uni/integration/theme. */
export interface PortalTheme {
  title: string;
  primaryColor: string;
  logo: string;
}

/** The state a failed portal call carries when the page does not exist; null for other failures. */
export function missingState(error: unknown): PortalState | null {
  if (!isApiError(error) || error.key !== 'portal.notFound') return null;
  const data = error.data as Partial<PortalState> | undefined;
  return {
    code: 404,
    message: { title: data?.message?.title || error.message, content: data?.message?.content ?? '' },
    redirect: data?.redirect,
  };
}

export function portalTarget(sn: string, token: string): CommandTarget {
  return { key: ['portal', sn, token], base: `/uni/device/${encodeURIComponent(sn)}`, headers: { [PORTAL_TOKEN_HEADER]: token } };
}

/** A failure that will not pass by asking again (the page does not exist): not retried. */
function retryUnlessMissing(count: number, error: unknown) {
  return count < 2 && missingState(error) === null;
}

export function usePortalDevice(target: CommandTarget, lang: Language) {
  return useQuery({
    queryKey: [...target.key, 'device', lang],
    queryFn: ({ signal }) => api.get<PortalDevice>(target.base, { signal, headers: target.headers }),
    refetchInterval: 60_000,
    retry: retryUnlessMissing,
  });
}

export function usePortalMetadata(target: CommandTarget, lang: Language, enabled: boolean) {
  return useQuery({
    queryKey: [...target.key, 'metadata', lang],
    queryFn: ({ signal }) => api.get<ParamCatalogue>(`${target.base}/metadata`, { signal, headers: target.headers }),
    staleTime: 30 * 60_000,
    enabled,
    retry: retryUnlessMissing,
  });
}

export function usePortalTheme(lang: Language) {
  return useQuery(
    queryOptions({
      queryKey: ['portal-theme', lang],
      queryFn: ({ signal }) => api.get<PortalTheme>('/uni/integration/theme', { signal }),
      staleTime: 60 * 60_000,
    }),
  );
}

/** A device's portal link as its owner sees it; `token` and `path` only right after it was made. */
export interface PortalLink {
  enabled: boolean;
  allowControl: boolean;
  createdAt: number | null;
  token?: string;
  path?: string;
}

const linkKey = (id: number) => poiKeys.plain(id, 'portal');

export function usePortalLink(id: number) {
  return useQuery({ queryKey: linkKey(id), queryFn: ({ signal }) => api.get<PortalLink>(`/poi/${id}/portal`, { signal }) });
}

/** Turns the portal on with a new link (replacing the last one), or off. */
export function usePortalLinkChange(id: number, { onMade }: { onMade?: (link: PortalLink) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { allowControl: boolean } | 'off') =>
      change === 'off' ? api.delete<PortalLink>(`/poi/${id}/portal`) : api.post<PortalLink>(`/poi/${id}/portal`, change),
    onSuccess: (link) => {
      const { token: _token, path: _path, ...shown } = link;
      queryClient.setQueryData(linkKey(id), shown);
      if (link.token) onMade?.(link);
    },
  });
}
