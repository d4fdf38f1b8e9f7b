import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, API_BASE } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceImage } from '../types';

export function getImages(id: number, size: number, signal?: AbortSignal): Promise<DeviceImage[]> {
  return api.get<DeviceImage[]>(`/poi/${id}/images`, { params: { size }, signal });
}

export function getImagesQueryOptions(id: number, size: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'images', size),
    queryFn: ({ signal }) => getImages(id, size, signal),
    refetchInterval: 5 * 60_000,
  });
}

export function useImages(id: number, size = 12) {
  return useQuery(getImagesQueryOptions(id, size));
}

/** The address of one image's bytes (served with the session cookie). */
export function imageSrc(deviceId: number, imageId: number): string {
  return `${API_BASE}/poi/${deviceId}/images/${imageId}`;
}
