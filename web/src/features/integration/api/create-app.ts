import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AppInput, CreatedApp } from '../types';
import { appsKey } from './keys';

/** Creates an application; the answer holds its secret, shown this once. */
export function createApp(input: AppInput): Promise<CreatedApp> {
  return api.post<CreatedApp>('/openapi/application', input);
}

export function useCreateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
}
