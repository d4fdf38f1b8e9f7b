import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Switch, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { PAGE_SIZES } from '@/lib/page';
import type { OpenApp } from '../types';
import './integration.css';

export interface AppTableProps {
  apps: OpenApp[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  publishing: ReadonlySet<number>;
  deleting: ReadonlySet<number>;
  onPageChange: (page: number, size: number) => void;
  onPublish: (app: OpenApp, published: boolean) => void;
  onEdit: (app: OpenApp) => void;
  onDelete: (app: OpenApp) => void;
}

/** The account's open-API applications: key, push address, which devices, whether the key works. */
export function AppTable({ apps, total, loading, page, size, publishing, deleting, onPageChange, onPublish, onEdit, onDelete }: AppTableProps) {
  const { t } = useTranslation('integration');
  const columns = useMemo<TableColumnsType<OpenApp>>(
    () => [
      {
        key: 'name',
        title: t('apps.columns.name'),
        dataIndex: 'name',
        width: 160,
        render: (name: string, app) => (
          <Typography.Link onClick={() => onEdit(app)} className="fw-push-name">
            {name}
          </Typography.Link>
        ),
      },
      {
        key: 'appKey',
        title: t('apps.columns.appKey'),
        dataIndex: 'appKey',
        width: 270,
        render: (appKey: string) => (
          <Typography.Text className="fw-mono fw-nowrap" copyable={{ text: appKey }} data-testid="app-key">
            {appKey}
          </Typography.Text>
        ),
      },
      {
        key: 'pushUrl',
        title: t('apps.columns.pushUrl'),
        dataIndex: 'pushUrl',
        render: (pushUrl: string) =>
          pushUrl ? (
            <Typography.Text ellipsis={{ tooltip: pushUrl }} className="fw-push-url">
              {pushUrl}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('apps.noPush')}</Typography.Text>
          ),
      },
      {
        key: 'range',
        title: t('apps.columns.range'),
        dataIndex: 'range',
        width: 120,
        render: (_, app) => (app.range === 'all' ? t('apps.rangeAll') : t('apps.rangeCount', { count: app.deviceIds.length })),
      },
      {
        key: 'published',
        title: (
          <Tooltip title={t('apps.publishedHint')}>
            <span className="fw-push-hint">{t('apps.columns.published')}</span>
          </Tooltip>
        ),
        dataIndex: 'published',
        width: 96,
        render: (published: boolean, app) => (
          <Switch
            checked={published}
            loading={publishing.has(app.id)}
            onChange={(next) => onPublish(app, next)}
            aria-label={t('apps.publishLabel', { name: app.name })}
          />
        ),
      },
      {
        key: 'createTime',
        title: t('apps.columns.createTime'),
        dataIndex: 'createTime',
        width: 124,
        render: (time: number) => {
          const [date, clock] = formatDateTime(time).split(' ');
          return (
            <div className="fw-push-cell fw-nowrap">
              <span>{date}</span>
              <Typography.Text type="secondary" className="fw-push-cell__secondary">
                {clock}
              </Typography.Text>
            </div>
          );
        },
      },
      {
        key: 'actions',
        title: t('apps.columns.actions'),
        width: 150,
        render: (_, app) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(app)}>
              {t('apps.edit')}
            </Button>
            <Popconfirm
              title={t('apps.deleteTitle', { name: app.name })}
              description={t('apps.deleteDescription')}
              okText={t('apps.deleteOk')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(app)}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} loading={deleting.has(app.id)}>
                {t('apps.delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, publishing, deleting, onPublish, onEdit, onDelete],
  );
  return (
    <Table<OpenApp>
      className="fw-push-table"
      rowKey="id"
      columns={columns}
      dataSource={apps}
      loading={loading}
      scroll={{ x: 1060 }}
      pagination={
        total > size
          ? { current: page, pageSize: size, total, showSizeChanger: true, pageSizeOptions: PAGE_SIZES, onChange: onPageChange }
          : false
      }
    />
  );
}
