import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { useReturnDevice } from '../api/return-device';
import type { SharedDevice } from '../types';
import { DeviceCell } from './device-cell';
import { PurviewTags } from './purview-tags';
import { SharingEmpty } from './sharing-empty';
import { SHARING_PAGE_SIZES, usePagedList } from './use-paging';
import './sharing.css';

/** Devices other accounts share with me, who owns them, and what I may do; each can be given back. */
export function SharedWithMe() {
  const { t } = useTranslation('sharing');
  const notice = useNotice();
  const { query, onChange, list } = usePagedList(useSharedWithMe);
  const giveBack = useReturnDevice();
  const [returning, setReturning] = useState<number | null>(null);

  const columns = useMemo<TableColumnsType<SharedDevice>>(
    () => [
      { key: 'device', title: t('columns.device'), width: 200, render: (_, device) => <DeviceCell device={device} /> },
      { key: 'type', title: t('columns.type'), dataIndex: 'typeName', width: 190 },
      { key: 'owner', title: t('columns.owner'), width: 140, render: (_, device) => device.owner.name },
      { key: 'rights', title: t('columns.myRights'), width: 260, render: (_, device) => <PurviewTags purview={device.purview} /> },
      {
        key: 'grantTime',
        title: t('columns.grantTime'),
        dataIndex: 'grantTime',
        width: 180,
        render: (time: number) => <span className="fw-share-time">{formatDateTime(time)}</span>,
      },
      {
        key: 'actions',
        title: t('columns.actions'),
        width: 112,
        fixed: 'right',
        render: (_, device) => (
          <Popconfirm
            title={t('manage.giveBackTitle', { device: device.name })}
            description={t('manage.giveBackDescription', { owner: device.owner.name })}
            okText={t('manage.giveBack')}
            okButtonProps={{ danger: true }}
            onConfirm={() => {
              setReturning(device.poiId);
              giveBack.mutate(device.poiId, {
                onSuccess: () => notice.success(t('manage.givenBack')),
                onError: (error) => notice.error(errorMessage(error)),
                onSettled: () => setReturning(null),
              });
            }}
          >
            <Button danger size="small" loading={returning === device.poiId} aria-label={t('manage.giveBackLabel', { device: device.name })}>
              {t('manage.giveBack')}
            </Button>
          </Popconfirm>
        ),
      },
    ],
    [t, giveBack, notice, returning],
  );

  if (list.isError) return <ServerErrorAlert error={list.error} />;
  return (
    <Table<SharedDevice>
      rowKey="poiId"
      className="fw-share-table"
      columns={columns}
      dataSource={list.data?.list ?? []}
      loading={list.isPending || list.isPlaceholderData}
      scroll={{ x: 1040 }}
      locale={{ emptyText: <SharingEmpty description={t('manage.emptyShared')} toDevices={false} /> }}
      pagination={{
        current: query.page,
        pageSize: query.size,
        total: list.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: SHARING_PAGE_SIZES,
        showTotal: (count) => t('manage.devicesTotal', { count }),
        onChange,
        hideOnSinglePage: true,
      }}
    />
  );
}
