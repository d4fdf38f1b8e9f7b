import { Button, ErrorBlock, InfiniteScroll, List, PullToRefresh, Skeleton } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { rowsOf, totalOf } from '@/lib/infinite-pages';
import { useNow } from '@/lib/use-now';
import { useRefreshFirstPage } from '@/lib/use-refresh-first-page';
import { getDevicePagesQueryOptions, useDevicePages, type DeviceFilters } from '../api/get-device-pages';
import { DeviceRow } from './device-row';

interface DeviceListProps {
  filters: DeviceFilters;
  filtered: boolean;
  onTag: (tagId: number) => void;
  onClear: () => void;
}

/** The devices, loading more on scrolling down and again on pulling down. */
export function DeviceList({ filters, filtered, onTag, onClear }: DeviceListProps) {
  const { t } = useTranslation(['devices', 'common']);
  const now = useNow();
  const query = useDevicePages(filters);
  const { queryKey } = getDevicePagesQueryOptions(filters);
  const refresh = useRefreshFirstPage(queryKey);
  const devices = useMemo(() => rowsOf(query.data?.pages, (device) => device.id), [query.data]);
  const total = totalOf(query.data?.pages);

  if (query.isPending) {
    return (
      <div className="fw-m-list-loading" aria-busy="true">
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    );
  }
  if (query.isError && devices.length === 0) {
    return (
      <div className="fw-m-list-error">
        <MobileServerError error={query.error} />
        <Button size="small" onClick={() => void query.refetch()}>
          {t('common:actions.retry')}
        </Button>
      </div>
    );
  }

  return (
    <PullToRefresh onRefresh={refresh}>
      {devices.length === 0 ? (
        <ErrorBlock
          status="empty"
          title={filtered ? t('empty') : t('mobile.noDevices')}
          description={
            filtered ? (
              <Button size="small" onClick={onClear}>
                {t('filters.clear')}
              </Button>
            ) : null
          }
          className="fw-m-empty"
        />
      ) : (
        <>
          <div className="fw-m-list-total" data-testid="mobile-device-total">
            {t('total', { count: total })}
          </div>
          <List className="fw-m-device-list">
            {devices.map((device) => (
              <DeviceRow key={device.id} device={device} now={now} onTag={onTag} activeTagId={filters.tagId} />
            ))}
          </List>
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
