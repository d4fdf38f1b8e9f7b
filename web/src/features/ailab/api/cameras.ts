import { useQuery } from '@tanstack/react-query';
import { api, API_BASE } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import type { CameraDevice, CameraPicture } from '../types';
import { ailabKey } from './keys';

/** The caller's own camera devices (insect and seedling monitors): their pictures can become samples. */
export function getCameras(signal?: AbortSignal): Promise<CameraDevice[]> {
  return api
    .get<{ list: CameraDevice[] | null }>('/devices', { params: { category: 'ecology', belong: 'mine', size: 100, sort: 'name' }, signal })
    .then(({ list }) => listOf(list).filter((device) => device.page === 'ibiosense' && !device.slave));
}

export function useCameras(enabled: boolean) {
  return useQuery({ queryKey: [...ailabKey, 'cameras'], queryFn: ({ signal }) => getCameras(signal), enabled });
}

/** A camera's newest pictures. */
export function usePictures(deviceId: number | undefined, size = 24) {
  return useQuery({
    queryKey: [...ailabKey, 'pictures', deviceId, size],
    queryFn: ({ signal }) => api.get<CameraPicture[] | null>(`/poi/${deviceId}/images`, { params: { size }, signal }).then(listOf),
    enabled: deviceId !== undefined,
  });
}

export function pictureSrc(deviceId: number, imageId: number): string {
  return `${API_BASE}/poi/${deviceId}/images/${imageId}`;
}
