import { Button, Card, Empty, Flex, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { farmTime } from '@/lib/farm-time';
import { useNotice } from '@/lib/notice';
import { useTaskFeedback } from '../api/get-advice';
import { dueText, KIND_COLOR, openFirst, STATUS_COLOR } from '../lib/task-view';
import { FEEDBACKS, type Feedback, type Task } from '../types';
import { Readings } from './readings';

/** The most a note may say, characters (advice.MaxNote). */
export const MAX_NOTE = 500;

function TaskCard({ task, nameOf }: { task: Task; nameOf: (id: number) => string }) {
  const { t } = useTranslation('advice');
  const notice = useNotice();
  const feedback = useTaskFeedback();
  const [note, setNote] = useState(task.note);
  const [changing, setChanging] = useState(false);
  const open = task.status === 'open' || changing;
  const due = dueText(task);

  const answer = (status: Feedback) =>
    feedback.mutate(
      { taskId: task.id, status, note },
      {
        onSuccess: () => {
          setChanging(false);
          notice.success(t('task.saved', { status: t(`task.status.${status}`) }));
        },
      },
    );

  return (
    <article className={`fw-task fw-task--${task.status}`} data-testid="advice-task" data-task-id={task.id} data-kind={task.kind} data-status={task.status}>
      <Flex justify="space-between" align="start" gap={8}>
        <div>
          <Space size={6} wrap>
            <Tag color={KIND_COLOR[task.kind]}>{t(`task.kind.${task.kind}`)}</Tag>
            {due && <Typography.Text type="secondary">{t('task.due', { time: due })}</Typography.Text>}
          </Space>
          <Typography.Title level={5} className="fw-task__title" data-testid="advice-task-title">
            {task.title}
          </Typography.Title>
        </div>
        <Tag color={STATUS_COLOR[task.status]} data-testid="advice-task-status">
          {t(`task.status.${task.status}`)}
        </Tag>
      </Flex>
      {task.steps && task.steps.length > 0 && (
        <div className="fw-task__why">
          <Typography.Text strong>{t('task.why')}</Typography.Text>
          <ol data-testid="advice-task-steps">
            {task.steps.map((step, index) => (
              <li key={index}>{step}</li>
            ))}
          </ol>
        </div>
      )}
      <Readings sources={task.facts.sources ?? []} nameOf={nameOf} />
      {open ? (
        <div className="fw-task__answer">
          <Input
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={MAX_NOTE}
            placeholder={t('task.notePlaceholder')}
            aria-label={t('task.note')}
            data-testid="advice-task-note"
          />
          <Space wrap>
            {FEEDBACKS.map((status) => (
              <Button
                key={status}
                type={status === 'done' ? 'primary' : 'default'}
                onClick={() => answer(status)}
                loading={feedback.isPending && feedback.variables?.status === status}
                disabled={feedback.isPending}
                data-testid={`advice-task-${status}`}
              >
                {t(`task.answer.${status}`)}
              </Button>
            ))}
            {changing && <Button type="link" onClick={() => setChanging(false)}>{t('task.cancel')}</Button>}
          </Space>
          <Typography.Text type="secondary" className="fw-task__hint">
            {t('task.notUsefulHint')}
          </Typography.Text>
          <ServerErrorAlert error={feedback.error} />
        </div>
      ) : (
        <Flex justify="space-between" align="center" gap={8} wrap className="fw-task__answered" data-testid="advice-task-answered">
          <Typography.Text type="secondary">
            {t('task.answered', { status: t(`task.status.${task.status}`), time: task.feedbackAt ? farmTime(task.feedbackAt).format('MM-DD HH:mm') : '' })}
            {task.note ? ` · ${task.note}` : ''}
          </Typography.Text>
          <Button size="small" type="link" onClick={() => setChanging(true)} data-testid="advice-task-change">
            {t('task.change')}
          </Button>
        </Flex>
      )}
    </article>
  );
}

/** Today's tasks of the field: each with its arithmetic, the readings behind it and the farmer's answer. */
export function TodayTasks({ tasks, day, nameOf, loading, error }: { tasks: Task[] | undefined; day?: string; nameOf: (id: number) => string; loading: boolean; error: unknown }) {
  const { t } = useTranslation('advice');
  const list = openFirst(tasks ?? []);
  const open = list.filter((task) => task.status === 'open').length;
  return (
    <Card
      variant="borderless"
      loading={loading}
      title={day ? t('today.titleDay', { day }) : t('today.title')}
      extra={tasks && <Typography.Text type="secondary">{t('today.count', { count: list.length, open })}</Typography.Text>}
      data-testid="advice-today"
    >
      <ServerErrorAlert error={error} />
      {list.length === 0 && !error ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<><div>{t('today.none')}</div><Typography.Text type="secondary">{t('today.noneDetail')}</Typography.Text></>} />
      ) : (
        <div className="fw-tasks">
          {list.map((task) => (
            <TaskCard key={`${task.id}-${task.status}`} task={task} nameOf={nameOf} />
          ))}
        </div>
      )}
    </Card>
  );
}
