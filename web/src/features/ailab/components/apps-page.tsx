import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Popconfirm, Switch, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useRowMutation } from '@/lib/use-row-mutation';
import { useApps, useDeleteApp, usePublishApp } from '../api/applications';
import type { LabApp } from '../types';
import { AppDrawer, type AppTarget } from './app-drawer';
import { LabHeader } from './lab-header';

/** The detection applications: created and edited in a drawer, published or withdrawn in place, removed after a confirmation. */
export function AppsPage({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const apps = useApps();
  const { ids: publishing, run: publish } = useRowMutation(usePublishApp().mutate);
  const { ids: deleting, run: remove } = useRowMutation(useDeleteApp().mutate);
  const [target, setTarget] = useState<AppTarget>(null);

  const columns: TableColumnsType<LabApp> = [
    {
      title: t('apps.name'),
      dataIndex: 'name',
      render: (name: string, app) => (
        <div className="fw-model-name fw-app-name">
          <Typography.Text strong>{name}</Typography.Text>
          {app.description ? (
            <Typography.Text type="secondary" className="fw-model-name__description" ellipsis={{ tooltip: app.description }}>
              {app.description}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    {
      title: t('apps.published'),
      key: 'published',
      render: (_, app) => (
        <Switch
          checked={app.published}
          loading={publishing.has(app.id)}
          onChange={(published) => publish(app.id, { id: app.id, published }, published ? t('apps.publishDone', { name: app.name }) : t('apps.withdrawDone', { name: app.name }))}
          aria-label={t('apps.publishOf', { name: app.name })}
          data-testid={`app-publish-${app.id}`}
        />
      ),
    },
    {
      title: t('apps.mediumAndType'),
      key: 'medium',
      render: (_, app) => (
        <Flex vertical>
          <span>{app.mediumName || '--'}</span>
          <Typography.Text type="secondary" className="fw-model-meta">
            {t(`apps.types.${app.type}`)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('apps.modelAndElements'),
      key: 'model',
      render: (_, app) => (
        <Flex vertical gap={4} align="flex-start">
          {app.modelName ? (
            <Flex gap={4} align="center">
              <span>{app.modelName}</span>
              <Tag>{app.modelVersion}</Tag>
            </Flex>
          ) : (
            '--'
          )}
          <Flex gap={4} wrap>
            {app.elements.map((element) => (
              <Tag key={element.identifier} title={element.identifier} color="blue">
                {element.unit ? `${element.name} (${element.unit})` : element.name}
              </Tag>
            ))}
          </Flex>
        </Flex>
      ),
    },
    {
      title: t('apps.devices'),
      key: 'devices',
      render: (_, app) => (
        <Flex vertical className="fw-app-devices">
          {app.devices.map((device) => (
            <span key={device.id} title={device.sn}>
              {device.name}
            </span>
          ))}
        </Flex>
      ),
    },
    {
      title: t('apps.jobs'),
      key: 'jobs',
      render: (_, app) => (
        <Tooltip title={t('apps.jobsHint')}>
          <Flex vertical gap={4} align="flex-start" className="fw-app-jobs" tabIndex={0} data-testid={`app-jobs-${app.id}`}>
            <Tag color="success">{t('apps.jobsDone', { count: app.jobs.done })}</Tag>
            {app.jobs.queued + app.jobs.running > 0 ? <Tag color="processing">{t('apps.jobsWaiting', { count: app.jobs.queued + app.jobs.running })}</Tag> : null}
            {app.jobs.failed > 0 ? <Tag color="error">{t('apps.jobsFailed', { count: app.jobs.failed })}</Tag> : null}
          </Flex>
        </Tooltip>
      ),
    },
    {
      title: t('actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, app) => (
        <Flex gap={4}>
          <Button size="small" icon={<EditOutlined />} onClick={() => setTarget({ mode: 'edit', id: app.id, name: app.name })} data-testid={`app-edit-${app.id}`}>
            {t('apps.edit')}
          </Button>
          <Popconfirm title={t('apps.deleteConfirm', { name: app.name })} onConfirm={() => remove(app.id, app.id, t('deleted'))}>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              loading={deleting.has(app.id)}
              aria-label={t('apps.delete', { name: app.name })}
              data-testid={`app-delete-${app.id}`}
            />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div className="fw-page fw-lab" data-testid="lab-apps">
      <LabHeader
        title={title}
        subtitle={t('apps.subtitle')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'new' })} data-testid="app-new">
            {t('apps.new')}
          </Button>
        }
      />
      <Card variant="borderless" className="fw-lab__card">
        {apps.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('apps.loadFailed')} description={errorMessage(apps.error)} /> : null}
        <Table<LabApp>
          rowKey="id"
          columns={columns}
          dataSource={apps.data ?? []}
          loading={apps.isPending}
          pagination={{ defaultPageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: t('apps.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="app-table"
        />
      </Card>
      <AppDrawer target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
