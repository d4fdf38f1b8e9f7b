import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Page } from './page';

/**
 * Pull to refresh: only the first page is asked for again (the rest load again on scrolling),
 * so a long list refreshes as fast as a short one.
 */
export function useRefreshFirstPage(queryKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    queryClient.setQueryData<InfiniteData<Page<unknown>, number>>(queryKey, (data) =>
      data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
    );
    await queryClient.refetchQueries({ queryKey, exact: true });
  }, [queryClient, queryKey]);
}
