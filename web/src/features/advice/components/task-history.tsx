import { Card, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { farmTime } from '@/lib/farm-time';
import { HISTORY_DAYS } from '../api/get-advice';
import { KIND_COLOR, STATUS_COLOR } from '../lib/task-view';
import type { Task } from '../types';

/** The device's tasks of the last 30 days and what the farmer said of each. */
export function TaskHistory({ tasks, deviceName, loading, error }: { tasks: Task[] | undefined; deviceName: string; loading: boolean; error?: ReactNode }) {
  const { t } = useTranslation('advice');
  const columns: ColumnsType<Task> = [
    { title: t('history.day'), dataIndex: 'day', width: 110 },
    {
      title: t('history.task'),
      key: 'task',
      render: (_, task) => (
        <>
          <Tag color={KIND_COLOR[task.kind]}>{t(`task.kind.${task.kind}`)}</Tag>
          {task.title}
        </>
      ),
    },
    {
      title: t('history.status'),
      key: 'status',
      width: 110,
      render: (_, task) => <Tag color={STATUS_COLOR[task.status]}>{t(`task.status.${task.status}`)}</Tag>,
    },
    {
      title: t('history.note'),
      key: 'note',
      render: (_, task) => (
        <>
          {task.note || <Typography.Text type="secondary">—</Typography.Text>}
          {task.feedbackAt && (
            <Typography.Text type="secondary" className="fw-history__at">
              {' '}
              · {farmTime(task.feedbackAt).format('MM-DD HH:mm')}
            </Typography.Text>
          )}
        </>
      ),
    },
  ];
  return (
    <Card variant="borderless" title={t('history.title', { days: HISTORY_DAYS, device: deviceName })} data-testid="advice-history">
      {error}
      <Table<Task>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={tasks ?? []}
        loading={loading}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: <span className="fw-table-empty">{t('history.none')}</span> }}
      />
    </Card>
  );
}
