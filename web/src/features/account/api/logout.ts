import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function logout(): Promise<null> {
  return api.post<null>('/account/logout');
}

export function useLogout({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      // Nothing fetched for this account may be shown to whoever logs in next.
      queryClient.clear();
      onSuccess?.();
    },
  });
}
