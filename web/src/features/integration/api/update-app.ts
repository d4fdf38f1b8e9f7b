import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AppInput, OpenApp } from '../types';
import { appsKey } from './keys';

export interface UpdateAppInput {
  id: number;
  app: AppInput;
}

export function updateApp({ id, app }: UpdateAppInput): Promise<OpenApp> {
  return api.put<OpenApp>(`/openapi/application/${id}`, app);
}

export function useUpdateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
}
