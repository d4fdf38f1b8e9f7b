import { useInfiniteQuery } from '@tanstack/react-query';
import { sharingKey } from '@/features/sharing/api/keys';
import type { Page, PageQuery } from '@/lib/page';
import { useLang } from '@/lib/use-lang';

export const MOBILE_PAGE_SIZE = 20;

/**
 * A sharing list read as a phone scrolls: pages of 20 appended as the end comes into view. Its key
 * starts with the sharing key, so granting, revoking and accepting refresh it like the desktop lists.
 */
export function useInfiniteSharing<T>(name: string, fetchPage: (query: PageQuery, signal?: AbortSignal) => Promise<Page<T>>) {
  const lang = useLang();
  const query = useInfiniteQuery({
    queryKey: [...sharingKey, 'mobile', name, lang],
    queryFn: ({ pageParam, signal }) => fetchPage({ page: pageParam, size: MOBILE_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * MOBILE_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
  const rows = query.data?.pages.flatMap((page) => page.list) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  return { ...query, rows, total };
}
