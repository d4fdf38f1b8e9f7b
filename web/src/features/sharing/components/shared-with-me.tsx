import type { TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { useReturnDevice } from '../api/return-device';
import type { SharedDevice } from '../types';
import { DeviceCell } from './device-cell';
import { DeviceAction, DeviceList, useDeviceAction } from './device-list';
import { PurviewTags } from './purview-tags';
import { SharingEmpty } from './sharing-empty';
import { usePagedList } from './use-paging';
import './sharing.css';

/** Devices other accounts share with me, who owns them, and what I may do; each can be given back. */
export function SharedWithMe() {
  const { t } = useTranslation('sharing');
  const paged = usePagedList(useSharedWithMe);
  const { pending: returning, run: giveBack } = useDeviceAction(useReturnDevice().mutate, t('manage.givenBack'));

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
          <DeviceAction
            title={t('manage.giveBackTitle', { device: device.name })}
            description={t('manage.giveBackDescription', { owner: device.owner.name })}
            action={t('manage.giveBack')}
            label={t('manage.giveBackLabel', { device: device.name })}
            loading={returning === device.poiId}
            onConfirm={() => giveBack(device.poiId)}
          />
        ),
      },
    ],
    [t, giveBack, returning],
  );

  return (
    <DeviceList paged={paged} columns={columns} scrollX={1040} empty={<SharingEmpty description={t('manage.emptyShared')} toDevices={false} />} />
  );
}
