import type { MutateOptions } from '@tanstack/react-query';
import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { PAGE_SIZES } from '@/lib/page';
import type { DeviceRef } from '../types';
import type { PagedList } from './use-paging';
import './sharing.css';

export interface DeviceListProps<T extends DeviceRef> {
  paged: PagedList<T>;
  columns: TableColumnsType<T>;
  /** The table's width, scrolled sideways when the page is narrower. */
  scrollX: number;
  /** Shown when there is no device. */
  empty: ReactNode;
}

/** A paged table of devices in a sharing tab, or why it could not be loaded. */
export function DeviceList<T extends DeviceRef>({ paged: { query, onChange, list }, columns, scrollX, empty }: DeviceListProps<T>) {
  const { t } = useTranslation('sharing');
  if (list.isError) return <ServerErrorAlert error={list.error} />;
  return (
    <Table<T>
      rowKey="poiId"
      className="fw-share-table"
      columns={columns}
      dataSource={list.data?.list ?? []}
      loading={list.isPending || list.isPlaceholderData}
      scroll={{ x: scrollX }}
      locale={{ emptyText: empty }}
      pagination={{
        current: query.page,
        pageSize: query.size,
        total: list.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        showTotal: (count) => t('manage.devicesTotal', { count }),
        onChange,
        hideOnSinglePage: true,
      }}
    />
  );
}

type MutateDevice<TData> = (poiId: number, options?: MutateOptions<TData, Error, number>) => void;

/**
 * A call on one device of a list (revoking it, giving it back): the device it is in flight for,
 * and `run`, which makes it and says how it went.
 */
export function useDeviceAction<TData>(mutate: MutateDevice<TData>, done: string) {
  const notice = useNotice();
  const [pending, setPending] = useState<number | null>(null);
  const run = useCallback(
    (poiId: number) => {
      setPending(poiId);
      mutate(poiId, {
        onSuccess: () => notice.success(done),
        onError: (error) => notice.error(errorMessage(error)),
        onSettled: () => setPending(null),
      });
    },
    [mutate, notice, done],
  );
  return { pending, run };
}

export interface DeviceActionProps {
  title: string;
  description: string;
  /** The button's text, also on the confirming button. */
  action: string;
  /** The button's accessible name, naming the device. */
  label: string;
  loading: boolean;
  onConfirm: () => void;
}

/** A device row's one action, asked for again before it runs. */
export function DeviceAction({ title, description, action, label, loading, onConfirm }: DeviceActionProps) {
  return (
    <Popconfirm title={title} description={description} okText={action} okButtonProps={{ danger: true }} onConfirm={onConfirm}>
      <Button danger size="small" loading={loading} aria-label={label}>
        {action}
      </Button>
    </Popconfirm>
  );
}
