import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Page } from '@/lib/page';
import type { OpenApp } from '../types';
import { appsKey } from './keys';

export interface PublishAppInput {
  id: number;
  published: boolean;
}

/** Only a published application's key is accepted by the open API. */
export function publishApp({ id, published }: PublishAppInput): Promise<OpenApp> {
  return api.put<OpenApp>(`/openapi/application/${id}/publish`, { published });
}

export function usePublishApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishApp,
    onSuccess: (_answer, { id, published }) => {
      queryClient.setQueriesData<Page<OpenApp>>({ queryKey: [...appsKey, 'list'] }, (page) =>
        page && { ...page, list: page.list.map((app) => (app.id === id ? { ...app, published } : app)) },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
}
