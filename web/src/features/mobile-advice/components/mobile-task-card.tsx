import { Button, Input, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { useTaskFeedback } from '@/features/advice/api/get-advice';
import { Readings } from '@/features/advice/components/readings';
import { MAX_NOTE } from '@/features/advice/components/today-tasks';
import { dueText } from '@/features/advice/lib/task-view';
import { FEEDBACKS, type Feedback, type Task, type TaskKind, type TaskStatus } from '@/features/advice/types';
import { farmTime } from '@/lib/farm-time';
import { useNotice } from '@/lib/notice';

/** Each kind's colour, from mobile-advice.css: darker on a light page, lighter on a dark one. */
const kindColor = (kind: TaskKind) => `var(--fw-m-kind-${kind})`;
const STATUS_COLOR: Record<TaskStatus, string> = { open: 'primary', done: 'success', notDone: 'warning', notUseful: 'default' };

/** A task on the phone: what to do, why, and three buttons for the answer. */
export function MobileTaskCard({ task, nameOf }: { task: Task; nameOf: (id: number) => string }) {
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
    <article className={`fw-m-task fw-m-task--${task.status}`} data-testid="advice-task" data-task-id={task.id} data-kind={task.kind} data-status={task.status}>
      <div className="fw-m-task__head">
        <Tag color={kindColor(task.kind)} fill="outline">
          {t(`task.kind.${task.kind}`)}
        </Tag>
        {due && <span className="fw-m-task__due">{t('task.due', { time: due })}</span>}
        <Tag color={STATUS_COLOR[task.status]} fill="outline" className="fw-m-task__status" data-testid="advice-task-status">
          {t(`task.status.${task.status}`)}
        </Tag>
      </div>
      <h3 className="fw-m-task__title" data-testid="advice-task-title">
        {task.title}
      </h3>
      {task.steps && task.steps.length > 0 && (
        <div className="fw-m-task__why">
          <strong>{t('task.why')}</strong>
          <ol data-testid="advice-task-steps">
            {task.steps.map((step, index) => (
              <li key={index}>{step}</li>
            ))}
          </ol>
        </div>
      )}
      <Readings sources={task.facts.sources ?? []} nameOf={nameOf} />
      {open ? (
        <div className="fw-m-task__answer">
          <Input value={note} onChange={setNote} maxLength={MAX_NOTE} placeholder={t('task.notePlaceholder')} aria-label={t('task.note')} clearable data-testid="advice-task-note" />
          <div className="fw-m-task__buttons">
            {FEEDBACKS.map((status) => (
              <Button
                key={status}
                size="small"
                color={status === 'done' ? 'primary' : 'default'}
                loading={feedback.isPending && feedback.variables?.status === status}
                disabled={feedback.isPending}
                onClick={() => answer(status)}
                data-testid={`advice-task-${status}`}
              >
                {t(`task.answer.${status}`)}
              </Button>
            ))}
          </div>
          <MobileServerError error={feedback.error} />
        </div>
      ) : (
        <div className="fw-m-task__answered" data-testid="advice-task-answered">
          <span>
            {t('task.answered', { status: t(`task.status.${task.status}`), time: task.feedbackAt ? farmTime(task.feedbackAt).format('MM-DD HH:mm') : '' })}
            {task.note ? ` · ${task.note}` : ''}
          </span>
          <Button size="mini" fill="none" color="primary" onClick={() => setChanging(true)} data-testid="advice-task-change">
            {t('task.change')}
          </Button>
        </div>
      )}
    </article>
  );
}
