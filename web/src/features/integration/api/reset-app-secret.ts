import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Replaces an application's secret; the new one is shown this once and the old stops working. */
export function resetAppSecret(id: number): Promise<{ appSecret: string }> {
  return api.post<{ appSecret: string }>(`/openapi/application/${id}/secret`);
}

export function useResetAppSecret() {
  return useMutation({ mutationFn: resetAppSecret });
}
