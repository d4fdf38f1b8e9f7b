import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import type { Installation, LatestIdEvent } from '../more-types';

/** GET /apis/poi/{id}/pluviometer/i-d: the latest rain event against the intensity-duration threshold. */
export function useLatestIdEvent(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'i-d-latest'),
    queryFn: ({ signal }) => api.get<LatestIdEvent>(`/poi/${deviceId}/pluviometer/i-d`, { signal }),
  });
}

/** GET /apis/poi/{id}/pluviometer/installing: how and where the rain gauge is installed. */
export function useInstallation(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'installing'),
    queryFn: ({ signal }) => api.get<Installation>(`/poi/${deviceId}/pluviometer/installing`, { signal }).then((d) => ({ ...d, criteria: listOf(d.criteria) })),
  });
}

