import { DownloadOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Drawer, Flex, Popconfirm, Progress, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useBriefings, useDeletePreset, useSetSchedule } from '@/features/briefing/api/briefings';
import { PresetModal } from '@/features/briefing/components/preset-modal';
import { ReportPreview } from '@/features/briefing/components/report-preview';
import { useFileExport } from '@/features/briefing/components/use-file-export';
import '@/features/briefing/components/briefing.css';
import { weekdayKey, type Preset } from '@/features/briefing/types';
import { errorMessage } from '@/lib/api-client';
import { usePageTitle } from '../../route-handle';

function two(n: number) {
  return String(n).padStart(2, '0');
}

export default function MoistureReportRoute() {
  const { t } = useTranslation('briefing');
  const { message } = App.useApp();
  const title = usePageTitle();
  const [page, setPage] = useState({ page: 1, size: 20 });
  const briefings = useBriefings(page);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<Preset | null>(null);
  const remove = useDeletePreset();
  const schedule = useSetSchedule();
  const files = useFileExport();
  const busy = files.current && !files.current.error && !files.current.done;

  const scheduleText = (p: Preset) => {
    const time = `${two(p.schedule.hour)}:${two(p.schedule.minute)}`;
    return p.period === 'dekad'
      ? t('scheduleText.dekad', { time })
      : t('scheduleText.week', { weekday: t(weekdayKey(p.schedule.weekday)), time });
  };

  const fileButtons = (p: Preset) => (
    <Space size={4} wrap>
      <Button size="small" icon={<EyeOutlined />} onClick={() => setPreviewing(p)} data-testid={`briefing-preview-${p.configId}`}>
        {t('list.preview')}
      </Button>
      {(['pdf', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          icon={<DownloadOutlined />}
          disabled={Boolean(busy)}
          loading={Boolean(busy) && files.current?.configId === p.configId && files.current.format === format}
          onClick={() => void files.run(p.configId, format)}
          data-testid={`briefing-${format}-${p.configId}`}
        >
          {t(`file.${format}`)}
        </Button>
      ))}
    </Space>
  );

  const current = files.current;
  return (
    <div className="fw-page fw-briefing">
      <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-briefing__header">
        <div>
          <Typography.Title level={3} className="fw-page__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{t('list.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="briefing-add">
          {t('list.add')}
        </Button>
      </Flex>
      {current ? (
        <Alert
          className="fw-briefing__job"
          data-testid="briefing-job"
          type={current.error ? 'error' : current.done ? 'success' : 'info'}
          showIcon
          closable={Boolean(current.error || current.done)}
          onClose={files.clear}
          message={
            current.error
              ? current.error.message
              : current.done
                ? t('file.ready')
                : current.job?.status === 'running'
                  ? t('file.generating', { format: current.format.toUpperCase() })
                  : t('file.queued')
          }
          description={
            current.error ? (
              current.error.reason ? t('file.reason', { reason: current.error.reason }) : undefined
            ) : (
              <Progress percent={current.job?.progress ?? 0} size="small" data-testid="briefing-progress" />
            )
          }
        />
      ) : null}
      <Card variant="borderless">
        <ServerErrorAlert error={briefings.error} />
        <Table<Preset>
          rowKey="configId"
          loading={briefings.isFetching}
          dataSource={briefings.data?.list ?? []}
          locale={{ emptyText: <span className="fw-table-empty">{t('list.empty')}</span> }}
          scroll={{ x: 900 }}
          pagination={{
            current: page.page,
            pageSize: page.size,
            total: briefings.data?.total ?? 0,
            onChange: (next, size) => setPage({ page: size === page.size ? next : 1, size }),
            hideOnSinglePage: true,
          }}
          columns={[
            {
              title: t('columns.name'),
              dataIndex: 'name',
              render: (name: string, p) => (
                <Flex vertical>
                  <Typography.Text strong>{name}</Typography.Text>
                  <Typography.Text type="secondary">{p.unitName}</Typography.Text>
                </Flex>
              ),
            },
            { title: t('columns.regions'), render: (_, p) => t('count.regions', { count: p.regionList.length }) },
            { title: t('columns.devices'), render: (_, p) => t('count.devices', { count: p.zsDeviceIds.length }) },
            { title: t('columns.period'), render: (_, p) => t(`period.${p.period}`) },
            {
              title: t('columns.schedule'),
              render: (_, p) => (
                <Space>
                  <Switch
                    size="small"
                    checked={p.schedule.enabled}
                    aria-label={t('list.scheduleLabel', { name: p.name })}
                    loading={schedule.isPending && schedule.variables?.id === p.configId}
                    onChange={(enabled) =>
                      schedule.mutate(
                        { id: p.configId, enabled },
                        {
                          onSuccess: () => message.success(enabled ? t('list.scheduleOn') : t('list.scheduleOff')),
                          onError: (error) => message.error(errorMessage(error)),
                        },
                      )
                    }
                    data-testid={`briefing-schedule-${p.configId}`}
                  />
                  <Typography.Text type={p.schedule.enabled ? undefined : 'secondary'}>{scheduleText(p)}</Typography.Text>
                </Space>
              ),
            },
            {
              title: t('columns.actions'),
              render: (_, p) => (
                <Flex vertical gap={4}>
                  {fileButtons(p)}
                  <Space size={4}>
                    <Button size="small" type="link" onClick={() => setEditing(p.configId)}>
                      {t('list.edit')}
                    </Button>
                    <Popconfirm
                      title={t('list.deleteTitle', { name: p.name })}
                      okText={t('list.deleteOk')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() =>
                        remove.mutate(p.configId, {
                          onSuccess: () => message.success(t('list.deleted')),
                          onError: (error) => message.error(errorMessage(error)),
                        })
                      }
                    >
                      <Button size="small" type="link" danger>
                        {t('list.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                </Flex>
              ),
            },
          ]}
        />
      </Card>
      <Drawer
        open={previewing !== null}
        width={920}
        title={previewing ? `${t('report.title')} · ${previewing.name}` : t('report.title')}
        onClose={() => setPreviewing(null)}
        destroyOnHidden
        extra={previewing ? fileButtons(previewing) : null}
      >
        {previewing ? <ReportPreview configId={previewing.configId} /> : null}
      </Drawer>
      <PresetModal target={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
