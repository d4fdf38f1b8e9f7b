import { farmTime } from '@/lib/farm-time';
import { paths } from '@/config/paths';

/** The overview's status groups, in the order of its bar: working first, then what needs a hand. */
export const STATUS_GROUPS = ['online', 'lowpower', 'offline', 'fault', 'notDeployed'] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

const OPERATIONAL: readonly string[] = ['online', 'lowpower', 'offline', 'fault'];

export interface Segment {
  group: StatusGroup;
  count: number;
  /** Share of all devices, 0–100. */
  percent: number;
}

/**
 * The devices' statuses as the bar's segments: the four operational statuses, and every other
 * (repair, idle, on a shelf or on its way) together as "not deployed". Empty groups are kept, at 0.
 */
export function statusSegments(status: Record<string, number>): Segment[] {
  const counts: Record<StatusGroup, number> = { online: 0, lowpower: 0, offline: 0, fault: 0, notDeployed: 0 };
  let total = 0;
  for (const [s, n] of Object.entries(status)) {
    counts[OPERATIONAL.includes(s) ? (s as StatusGroup) : 'notDeployed'] += n;
    total += n;
  }
  return STATUS_GROUPS.map((group) => ({ group, count: counts[group], percent: total > 0 ? (counts[group] * 100) / total : 0 }));
}

/** Devices not in use: every status outside the four operational ones. */
export function notDeployed(status: Record<string, number>): number {
  return Object.entries(status).reduce((sum, [s, n]) => (OPERATIONAL.includes(s) ? sum : sum + n), 0);
}

/** The device list filtered to a status or a type, as an address. */
export function deviceListPath(filter: { status?: string; typeId?: number }): string {
  const q = new URLSearchParams();
  if (filter.status) q.set('status', filter.status);
  if (filter.typeId !== undefined) q.set('typeId', String(filter.typeId));
  const text = q.toString();
  return text ? `${paths.devices}?${text}` : paths.devices;
}

export interface HourBar {
  /** The hour's start, unix ms. */
  start: number;
  /** "14:00", on the farm's clock. */
  label: string;
  count: number;
  /** Height against the busiest hour, 0–100. */
  percent: number;
}

/** The hourly alert counts as bars: bucket i starts i hours after `generatedAt` − hours. */
export function hourBars(hourly: number[], generatedAt: number): HourBar[] {
  const since = generatedAt - hourly.length * 3_600_000;
  const peak = Math.max(0, ...hourly);
  return hourly.map((count, i) => {
    const start = since + i * 3_600_000;
    return { start, label: farmTime(start).format('HH:mm'), count, percent: peak > 0 ? (count * 100) / peak : 0 };
  });
}
