import { Button, Popconfirm, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { useGrantedDevices } from '../api/get-granted-devices';
import { useRevokeDevice } from '../api/revoke-device';
import type { GrantedDevice } from '../types';
import { DeviceCell } from './device-cell';
import { PurviewTags } from './purview-tags';
import { SharingEmpty } from './sharing-empty';
import { SHARING_PAGE_SIZES, usePagedList } from './use-paging';
import './sharing.css';

/** My shared devices, each with everyone it is shared with; revoking one stops sharing it with all. */
export function GrantedDevices() {
  const { t } = useTranslation('sharing');
  const notice = useNotice();
  const { query, onChange, list } = usePagedList(useGrantedDevices);
  const revoke = useRevokeDevice();
  const [revoking, setRevoking] = useState<number | null>(null);

  const columns = useMemo<TableColumnsType<GrantedDevice>>(
    () => [
      { key: 'device', title: t('columns.device'), width: 200, render: (_, device) => <DeviceCell device={device} /> },
      { key: 'type', title: t('columns.type'), dataIndex: 'typeName', width: 190 },
      {
        key: 'users',
        title: t('columns.grantees'),
        render: (_, device) => (
          <ul className="fw-share-grantees">
            {device.users.map((user) => (
              <li key={user.uid}>
                <span className="fw-share-grantees__name">{user.name}</span>
                <Typography.Text type="secondary" className="fw-share-grantees__account">
                  {user.accountNumber}
                </Typography.Text>
                <PurviewTags purview={user.purview} />
              </li>
            ))}
          </ul>
        ),
      },
      {
        key: 'actions',
        title: t('columns.actions'),
        width: 120,
        fixed: 'right',
        render: (_, device) => (
          <Popconfirm
            title={t('manage.revokeDeviceTitle', { device: device.name })}
            description={t('manage.revokeDeviceDescription', { count: device.users.length })}
            okText={t('manage.revokeAll')}
            okButtonProps={{ danger: true }}
            onConfirm={() => {
              setRevoking(device.poiId);
              revoke.mutate(device.poiId, {
                onSuccess: () => notice.success(t('manage.revoked')),
                onError: (error) => notice.error(errorMessage(error)),
                onSettled: () => setRevoking(null),
              });
            }}
          >
            <Button danger size="small" loading={revoking === device.poiId} aria-label={t('manage.revokeDeviceLabel', { device: device.name })}>
              {t('manage.revokeAll')}
            </Button>
          </Popconfirm>
        ),
      },
    ],
    [t, revoke, notice, revoking],
  );

  if (list.isError) return <ServerErrorAlert error={list.error} />;
  return (
    <Table<GrantedDevice>
      rowKey="poiId"
      className="fw-share-table"
      columns={columns}
      dataSource={list.data?.list ?? []}
      loading={list.isPending || list.isPlaceholderData}
      scroll={{ x: 860 }}
      locale={{ emptyText: <SharingEmpty description={t('manage.emptyDevices')} /> }}
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
