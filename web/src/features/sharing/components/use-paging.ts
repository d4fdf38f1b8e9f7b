import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { PAGE_SIZES, type Page, type PageQuery } from '@/lib/page';

/**
 * One page of a sharing list, and a way to turn pages. A page past the end (its last row was
 * revoked) falls back to the last page that has rows.
 */
export function usePagedList<T>(useList: (query: PageQuery) => UseQueryResult<Page<T>>) {
  const [query, setQuery] = useState<PageQuery>({ page: 1, size: PAGE_SIZES[0] });
  const list = useList(query);
  const onChange = useCallback(
    (page: number, size: number) => setQuery((current) => ({ page: size === current.size ? page : 1, size })),
    [],
  );
  const total = list.data?.total;
  const settled = !list.isPlaceholderData;
  if (total !== undefined && settled) {
    const last = Math.max(1, Math.ceil(total / query.size));
    if (query.page > last) setQuery({ ...query, page: last });
  }
  return { query, onChange, list };
}

export type PagedList<T> = ReturnType<typeof usePagedList<T>>;
