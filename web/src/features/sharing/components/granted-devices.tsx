import { Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useGrantedDevices } from '../api/get-granted-devices';
import { useRevokeDevice } from '../api/revoke-device';
import type { GrantedDevice } from '../types';
import { DeviceCell } from './device-cell';
import { DeviceAction, DeviceList, useDeviceAction } from './device-list';
import { PurviewTags } from './purview-tags';
import { SharingEmpty } from './sharing-empty';
import { usePagedList } from './use-paging';
import './sharing.css';

/** My shared devices, each with everyone it is shared with; revoking one stops sharing it with all. */
export function GrantedDevices() {
  const { t } = useTranslation('sharing');
  const paged = usePagedList(useGrantedDevices);
  const { pending: revoking, run: revoke } = useDeviceAction(useRevokeDevice().mutate, t('manage.revoked'));

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
          <DeviceAction
            title={t('manage.revokeDeviceTitle', { device: device.name })}
            description={t('manage.revokeDeviceDescription', { count: device.users.length })}
            action={t('manage.revokeAll')}
            label={t('manage.revokeDeviceLabel', { device: device.name })}
            loading={revoking === device.poiId}
            onConfirm={() => revoke(device.poiId)}
          />
        ),
      },
    ],
    [t, revoke, revoking],
  );

  return <DeviceList paged={paged} columns={columns} scrollX={860} empty={<SharingEmpty description={t('manage.emptyDevices')} />} />;
}
