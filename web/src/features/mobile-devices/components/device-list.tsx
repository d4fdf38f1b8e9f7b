import { List } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MobilePagedList } from '@/components/mobile-paged-list';
import { rowsOf, totalOf } from '@/lib/infinite-pages';
import { useNow } from '@/lib/use-now';
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
  const { t } = useTranslation('devices');
  const now = useNow();
  const query = useDevicePages(filters);
  const { queryKey } = getDevicePagesQueryOptions(filters);
  const devices = useMemo(() => rowsOf(query.data?.pages, (device) => device.id), [query.data]);

  return (
    <MobilePagedList
      query={query}
      queryKey={queryKey}
      count={devices.length}
      emptyTitle={filtered ? t('empty') : t('mobile.noDevices')}
      clear={filtered ? { label: t('filters.clear'), onClear } : undefined}
    >
      <div className="fw-m-list-total" data-testid="mobile-device-total">
        {t('total', { count: totalOf(query.data?.pages) })}
      </div>
      <List className="fw-m-device-list">
        {devices.map((device) => (
          <DeviceRow key={device.id} device={device} now={now} onTag={onTag} activeTagId={filters.tagId} />
        ))}
      </List>
    </MobilePagedList>
  );
}
