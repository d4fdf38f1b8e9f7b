import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Button, ErrorBlock, InfiniteScroll, PullToRefresh, Skeleton } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import './mobile-paged-list.css';
import type { Page } from '@/lib/page';
import { useRefreshFirstPage } from '@/lib/use-refresh-first-page';

interface MobilePagedListProps<T> {
  /** The list's pages, a page at a time (useInfiniteQuery). */
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>;
  /** The query's key: pulling down asks for its first page again. */
  queryKey: readonly unknown[];
  /** How many rows are shown (after the caller dropped repeats). */
  count: number;
  /** What an empty list says. */
  emptyTitle: ReactNode;
  /** When filters hide every row: the button's text and what it does. */
  clear?: { label: string; onClear: () => void };
  /** The rows, shown when there are any. */
  children: ReactNode;
}

/**
 * A phone list loaded a page at a time: a skeleton first, the server's reason with "Retry" when
 * nothing could be loaded, an empty state (offering to clear the filters), more rows on scrolling
 * to the end, the first page again on pulling down.
 */
export function MobilePagedList<T>({ query, queryKey, count, emptyTitle, clear, children }: MobilePagedListProps<T>) {
  const { t } = useTranslation('common');
  const refresh = useRefreshFirstPage(queryKey);

  if (query.isPending) {
    return (
      <div className="fw-m-list-loading" aria-busy="true">
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    );
  }
  if (query.isError && count === 0) {
    return (
      <div className="fw-m-list-error">
        <MobileServerError error={query.error} />
        <Button size="small" onClick={() => void query.refetch()}>
          {t('actions.retry')}
        </Button>
      </div>
    );
  }

  return (
    <PullToRefresh onRefresh={refresh}>
      {count === 0 ? (
        <ErrorBlock
          status="empty"
          title={emptyTitle}
          description={
            clear ? (
              <Button size="small" onClick={clear.onClear}>
                {clear.label}
              </Button>
            ) : null
          }
          className="fw-m-empty"
        />
      ) : (
        <>
          {children}
          <InfiniteScroll
            hasMore={query.hasNextPage}
            loadMore={async () => {
              const result = await query.fetchNextPage();
              // Thrown, the scroller offers to try again instead of asking over and over.
              if (result.isError) throw result.error;
            }}
          />
        </>
      )}
    </PullToRefresh>
  );
}
