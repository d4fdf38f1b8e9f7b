import dayjs from 'dayjs';
import { farmDate } from '@/lib/farm-time';
import { presetRange, type RangePreset, type TimeRange } from '@/lib/time-range';

/** A preset, or days picked on the calendar (browser-local dates, read as the farm's calendar days). */
export type RangeChoice = { preset: RangePreset } | { from: Date; to: Date };

/** The period a choice covers: a custom range runs from the first day's farm midnight to the end of the last day, never past now. */
export function rangeOf(choice: RangeChoice, now: number): TimeRange {
  if ('preset' in choice) return presetRange(choice.preset, now);
  const [a, b] = choice.from <= choice.to ? [choice.from, choice.to] : [choice.to, choice.from];
  const begin = farmDate(dayjs(a).format('YYYY-MM-DD')).valueOf();
  const end = farmDate(dayjs(b).format('YYYY-MM-DD')).add(1, 'day').valueOf();
  return { begin, end: Math.min(end, Math.ceil(now / 60_000) * 60_000) };
}

/** Depths a phone chart starts with: all of up to three, else the shallowest, a middle and the deepest. */
export function defaultNodes(nodes: readonly number[]): number[] {
  const sorted = [...nodes].sort((a, b) => a - b);
  if (sorted.length <= 3) return sorted;
  return [sorted[0], sorted[Math.floor((sorted.length - 1) / 2)], sorted[sorted.length - 1]];
}

/** The window a datazoom event leaves visible, in percent of the axis: { start, end } of the event or its first batch entry. */
export function zoomPercent(event: unknown): { start: number; end: number } | null {
  const e = event as { start?: number; end?: number; batch?: { start?: number; end?: number }[] } | null;
  const source = e?.batch?.[0] ?? e;
  if (typeof source?.start !== 'number' || typeof source?.end !== 'number') return null;
  return { start: source.start, end: source.end };
}

/** The instants at the ends of the visible window of a chart spanning `range`. */
export function visibleWindow(range: TimeRange, percent: { start: number; end: number }): TimeRange {
  const span = range.end - range.begin;
  return { begin: Math.round(range.begin + (span * percent.start) / 100), end: Math.round(range.begin + (span * percent.end) / 100) };
}
