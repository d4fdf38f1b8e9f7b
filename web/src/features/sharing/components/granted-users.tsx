import { DeleteOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Checkbox, Flex, Pagination, Popconfirm, Skeleton, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, initialOf } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { useGrantedUsers } from '../api/get-granted-users';
import { useRevokeGrantee } from '../api/revoke-grantee';
import { useRevokeUser } from '../api/revoke-user';
import { useUpdatePermissions } from '../api/update-permissions';
import { PURVIEW_KEYS, type GrantedUser, type PurviewKey } from '../types';
import { DeviceCell } from './device-cell';
import { SharingEmpty } from './sharing-empty';
import { usePagedList } from './use-paging';
import './sharing.css';

type GrantedUserDevice = GrantedUser['devices'][number];

const grantKey = (uid: number, poiId: number) => `${uid}:${poiId}`;

function UserDevices({ user }: { user: GrantedUser }) {
  const { t } = useTranslation('sharing');
  const notice = useNotice();
  const update = useUpdatePermissions();
  const revoke = useRevokeGrantee();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const mark = useCallback(
    (key: string, on: boolean) =>
      setBusy((current) => {
        const next = new Set(current);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );

  const columns = useMemo<TableColumnsType<GrantedUserDevice>>(() => {
    const setRight = (device: GrantedUserDevice, right: PurviewKey, value: boolean) => {
      const key = grantKey(user.uid, device.poiId);
      mark(key, true);
      update.mutate(
        { poiId: device.poiId, uid: user.uid, purview: { ...device.purview, [right]: value } },
        {
          onSuccess: () => notice.success(t('manage.rightsSaved')),
          onError: (error) => notice.error(errorMessage(error)),
          onSettled: () => mark(key, false),
        },
      );
    };
    const revokeOne = (device: GrantedUserDevice) => {
      const key = grantKey(user.uid, device.poiId);
      mark(key, true);
      revoke.mutate(
        { poiId: device.poiId, uid: user.uid },
        {
          onSuccess: () => notice.success(t('manage.revoked')),
          onError: (error) => notice.error(errorMessage(error)),
          onSettled: () => mark(key, false),
        },
      );
    };
    return [
      { key: 'device', title: t('columns.device'), width: 200, render: (_, device) => <DeviceCell device={device} /> },
      { key: 'type', title: t('columns.type'), dataIndex: 'typeName', width: 190 },
      {
        key: 'rights',
        title: t('columns.rights'),
        width: 340,
        render: (_, device) => (
          <Flex gap={4} wrap className="fw-share-rights-edit">
            {PURVIEW_KEYS.map((right) => (
              <Checkbox
                key={right}
                checked={device.purview[right]}
                disabled={busy.has(grantKey(user.uid, device.poiId))}
                onChange={(event) => setRight(device, right, event.target.checked)}
                aria-label={t('manage.rightFor', { right: t(`rights.${right}`), device: device.name, user: user.name })}
              >
                {t(`rights.${right}`)}
              </Checkbox>
            ))}
          </Flex>
        ),
      },
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
        width: 72,
        align: 'center',
        render: (_, device) => (
          <Popconfirm
            title={t('manage.revokeOneTitle')}
            description={t('manage.revokeOneDescription', { user: user.name, device: device.name })}
            okText={t('manage.revoke')}
            okButtonProps={{ danger: true }}
            onConfirm={() => revokeOne(device)}
          >
            <Tooltip title={t('manage.revoke')}>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('manage.revokeOneLabel', { device: device.name, user: user.name })}
                loading={busy.has(grantKey(user.uid, device.poiId)) && revoke.isPending}
              />
            </Tooltip>
          </Popconfirm>
        ),
      },
    ];
  }, [t, user, busy, mark, update, revoke, notice]);

  return (
    <Table<GrantedUserDevice>
      rowKey="poiId"
      size="small"
      columns={columns}
      dataSource={user.devices}
      pagination={false}
      scroll={{ x: 900 }}
      className="fw-share-table"
    />
  );
}

function UserCard({ user }: { user: GrantedUser }) {
  const { t } = useTranslation('sharing');
  const notice = useNotice();
  const revoke = useRevokeUser();
  return (
    <Card
      size="small"
      className="fw-share-user"
      data-testid="share-user"
      title={
        <Flex align="center" gap={10}>
          <Avatar size={32} className="fw-share-user__avatar" icon={user.name ? undefined : <UserOutlined />}>
            {initialOf(user.name)}
          </Avatar>
          <div className="fw-share-user__who">
            <div className="fw-share-user__name">{user.name}</div>
            <Typography.Text type="secondary" className="fw-share-user__account">
              {t('manage.account', { account: user.accountNumber })} · {t('manage.deviceCount', { count: user.devices.length })}
            </Typography.Text>
          </div>
        </Flex>
      }
      extra={
        <Popconfirm
          title={t('manage.revokeUserTitle', { user: user.name })}
          description={t('manage.revokeUserDescription')}
          okText={t('manage.revokeAll')}
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            revoke.mutate(user.uid, {
              onSuccess: () => notice.success(t('manage.revoked')),
              onError: (error) => notice.error(errorMessage(error)),
            })
          }
        >
          <Button danger size="small" loading={revoke.isPending}>
            {t('manage.revokeAll')}
          </Button>
        </Popconfirm>
      }
    >
      <UserDevices user={user} />
    </Card>
  );
}

/** Everyone I share devices with: their devices and rights, editable and revocable. */
export function GrantedUsers() {
  const { t } = useTranslation('sharing');
  const { query, onChange, list } = usePagedList(useGrantedUsers);
  const users = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  if (list.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (list.isError) return <ServerErrorAlert error={list.error} />;
  if (total === 0) return <SharingEmpty description={t('manage.emptyUsers')} />;
  return (
    <Flex vertical gap={16}>
      {users.map((user) => (
        <UserCard key={user.uid} user={user} />
      ))}
      {total > query.size && (
        <Pagination
          align="end"
          current={query.page}
          pageSize={query.size}
          total={total}
          onChange={onChange}
          showTotal={(count) => t('manage.usersTotal', { count })}
        />
      )}
    </Flex>
  );
}
