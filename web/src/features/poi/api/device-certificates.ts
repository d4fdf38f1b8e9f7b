import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { DeviceCertificate, IssuedCertificate } from '../types';

/** GET /apis/poi/{id}/certificates: the device's certificates, newest first (owner only). */
export function getCertificatesQueryOptions(id: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'certificates'),
    queryFn: ({ signal }) => api.get<{ list: DeviceCertificate[] }>(`/poi/${id}/certificates`, { signal }).then((r) => r.list),
  });
}

export function useCertificates(id: number) {
  return useQuery(getCertificatesQueryOptions(id));
}

/** Issues a certificate; its key comes back this once. */
export function useIssueCertificate(id: number, { onSuccess }: { onSuccess?: (issued: IssuedCertificate) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<IssuedCertificate>(`/poi/${id}/certificate`),
    onSuccess: async (issued) => {
      onSuccess?.(issued);
      await queryClient.invalidateQueries({ queryKey: getCertificatesQueryOptions(id).queryKey });
    },
  });
}

/** Revokes a certificate: refused from the next connection on, and a device connected with it is dropped. */
export function useRevokeCertificate(id: number, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serial: string) => api.delete<unknown>(`/poi/${id}/certificate/${encodeURIComponent(serial)}`),
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: getCertificatesQueryOptions(id).queryKey });
    },
  });
}
