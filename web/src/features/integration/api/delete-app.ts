import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { appsKey } from './keys';

export function deleteApp(id: number): Promise<null> {
  return api.delete<null>(`/openapi/application/${id}`);
}

export function useDeleteApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
}
