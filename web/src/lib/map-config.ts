import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';

/** The map's tile source (GET /apis/map/config). */
export interface MapConfig {
  url: string;
  subdomains?: string | string[];
  /** The coordinate system the tiles are drawn in; devices report WGS84. */
  coords: 'wgs84' | 'gcj02';
  attribution?: string;
  maxZoom?: number;
}

/** Used when the server configures no tile source: OpenStreetMap, drawn in WGS84. */
export const FALLBACK_MAP_CONFIG: MapConfig = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  coords: 'wgs84',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">OpenStreetMap</a>',
  maxZoom: 19,
};

function isMapConfig(value: unknown): value is MapConfig {
  if (typeof value !== 'object' || value === null) return false;
  const { url, coords } = value as Partial<MapConfig>;
  return typeof url === 'string' && url !== '' && (coords === 'wgs84' || coords === 'gcj02');
}

/** The tile source; a server without one (404) or with an unusable answer gets the fallback. */
export async function getMapConfig(signal?: AbortSignal): Promise<MapConfig> {
  try {
    const config = await api.get<unknown>('/map/config', { signal });
    return isMapConfig(config) ? config : FALLBACK_MAP_CONFIG;
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.code === 1404)) return FALLBACK_MAP_CONFIG;
    throw error;
  }
}

export function getMapConfigQueryOptions() {
  return queryOptions({
    queryKey: ['map', 'config'],
    queryFn: ({ signal }) => getMapConfig(signal),
    staleTime: Infinity,
  });
}

export function useMapConfig() {
  return useQuery(getMapConfigQueryOptions());
}
