import { farmTime } from '@/lib/farm-time';
import type { Task, TaskKind, TaskStatus } from '../types';

/** antd tag colours of the task kinds and statuses. */
export const KIND_COLOR: Record<TaskKind, string> = {
  irrigate: 'blue',
  frost: 'cyan',
  heat: 'volcano',
  scout: 'gold',
  waterlogging: 'magenta',
};

export const STATUS_COLOR: Record<TaskStatus, string> = {
  open: 'processing',
  done: 'success',
  notDone: 'warning',
  notUseful: 'default',
};

/** When a task is due, on the farm's clock: its hour when that is today, else day and hour. */
export function dueText(task: Task, now: number = Date.now()): string | null {
  if (task.dueAt === null) return null;
  const due = farmTime(task.dueAt);
  return due.isSame(farmTime(now), 'day') ? due.format('HH:mm') : due.format('MM-DD HH:mm');
}

/** Open tasks first, then in the order the advisor gave them. */
export function openFirst(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => Number(a.status !== 'open') - Number(b.status !== 'open'));
}
