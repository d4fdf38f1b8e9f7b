import type { Dayjs } from 'dayjs';
import { fromPicker } from '@/lib/farm-time';

/** Two dates picked on the farm's calendar, either missing. */
export type PickedRange = [Dayjs | null, Dayjs | null] | null;

/** The picked farm dates as instants: the first day's midnight, included, to the midnight after the last, excluded. */
export function recordRange(range: PickedRange): { begin?: number; end?: number } {
  const [from, to] = range ?? [null, null];
  return {
    begin: from ? fromPicker(from.startOf('day')).valueOf() : undefined,
    end: to ? fromPicker(to.startOf('day').add(1, 'day')).valueOf() : undefined,
  };
}
