import { DeleteOutlined, EditOutlined, FileSearchOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Switch, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@/lib/page';
import type { Channel } from '../types';
import { Delay, LastActivity, SuccessRate } from './channel-stats';
import './integration.css';

export interface ChannelTableProps {
  channels: Channel[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  toggling: ReadonlySet<number>;
  deleting: ReadonlySet<number>;
  onPageChange: (page: number, size: number) => void;
  onToggle: (channel: Channel, enabled: boolean) => void;
  onEdit: (channel: Channel) => void;
  onLog: (channel: Channel) => void;
  onDelete: (channel: Channel) => void;
}

/** The channels with their live figures: switch, where they push, how many devices, how well it goes. */
export function ChannelTable({
  channels,
  total,
  loading,
  page,
  size,
  toggling,
  deleting,
  onPageChange,
  onToggle,
  onEdit,
  onLog,
  onDelete,
}: ChannelTableProps) {
  const { t } = useTranslation('integration');
  const columns = useMemo<TableColumnsType<Channel>>(
    () => [
      {
        key: 'enabled',
        title: t('channels.columns.enabled'),
        dataIndex: 'enabled',
        width: 88,
        render: (enabled: boolean, channel) => (
          <Tooltip title={enabled ? t('channels.enabledHint') : t('channels.disabledHint')}>
            <Switch
              checked={enabled}
              loading={toggling.has(channel.id)}
              onChange={(next) => onToggle(channel, next)}
              aria-label={t('channels.enableLabel', { name: channel.name })}
            />
          </Tooltip>
        ),
      },
      {
        key: 'name',
        title: t('channels.columns.name'),
        dataIndex: 'name',
        render: (name: string, channel) => (
          <div className="fw-push-cell">
            <Typography.Link onClick={() => onEdit(channel)} className="fw-push-name">
              {name}
            </Typography.Link>
            <Typography.Text type="secondary" className="fw-push-cell__secondary fw-push-url" ellipsis={{ tooltip: channel.url }}>
              {channel.url}
            </Typography.Text>
          </div>
        ),
      },
      {
        key: 'devices',
        title: t('channels.columns.devices'),
        dataIndex: 'deviceIds',
        width: 96,
        render: (ids: number[]) => t('channels.deviceCount', { count: ids.length }),
      },
      {
        key: 'lastActivity',
        title: t('channels.columns.lastActivity'),
        dataIndex: 'lastActivity',
        width: 130,
        render: (time: number | null) => <LastActivity time={time} />,
      },
      {
        key: 'delay',
        title: (
          <Tooltip title={t('channels.delayHint')}>
            <span className="fw-push-hint">{t('channels.columns.delay')}</span>
          </Tooltip>
        ),
        width: 170,
        render: (_, channel) => <Delay channel={channel} />,
      },
      {
        key: 'rate',
        title: (
          <Tooltip title={t('channels.rateHint')}>
            <span className="fw-push-hint">{t('channels.columns.rate')}</span>
          </Tooltip>
        ),
        width: 170,
        render: (_, channel) => <SuccessRate channel={channel} />,
      },
      {
        key: 'actions',
        title: t('channels.columns.actions'),
        width: 200,
        render: (_, channel) => (
          <Space size={0} wrap>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(channel)}>
              {t('channels.edit')}
            </Button>
            <Button type="link" size="small" icon={<FileSearchOutlined />} onClick={() => onLog(channel)}>
              {t('channels.log')}
            </Button>
            <Popconfirm
              title={t('channels.deleteTitle', { name: channel.name })}
              description={t('channels.deleteDescription')}
              okText={t('channels.deleteOk')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(channel)}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} loading={deleting.has(channel.id)}>
                {t('channels.delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, toggling, deleting, onToggle, onEdit, onLog, onDelete],
  );

  return (
    <Table<Channel>
      className="fw-push-table"
      rowKey="id"
      columns={columns}
      dataSource={channels}
      loading={loading}
      scroll={{ x: 960 }}
      pagination={
        total > size
          ? {
              current: page,
              pageSize: size,
              total,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (count) => t('channels.total', { count }),
              onChange: onPageChange,
            }
          : false
      }
    />
  );
}
