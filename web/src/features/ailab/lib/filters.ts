import type { Sample } from '../types';

/** What the sample list is narrowed to; empty fields narrow nothing. */
export interface SampleFilter {
  /** Part of the device's name or SN. */
  device: string;
  tag: string;
  /** Sample time from and to, in milliseconds, both included. */
  from: number | null;
  to: number | null;
}

export const NO_FILTER: SampleFilter = { device: '', tag: '', from: null, to: null };

export function filterSamples(samples: readonly Sample[], filter: SampleFilter): Sample[] {
  const device = filter.device.trim().toLowerCase();
  return samples.filter(
    (sample) =>
      (!device || sample.deviceName.toLowerCase().includes(device) || sample.sn.toLowerCase().includes(device)) &&
      (!filter.tag || sample.tag === filter.tag) &&
      (filter.from === null || sample.sampleTime >= filter.from) &&
      (filter.to === null || sample.sampleTime <= filter.to),
  );
}

/** The tags in use, sorted, each once. */
export function sampleTags(samples: readonly Sample[]): string[] {
  return [...new Set(samples.map((sample) => sample.tag).filter(Boolean))].sort();
}

/** The samples before and after one in a list, by id; undefined at the ends. */
export function neighbours(ids: readonly number[], id: number): { previous?: number; next?: number } {
  const index = ids.indexOf(id);
  if (index < 0) return {};
  return { previous: index > 0 ? ids[index - 1] : undefined, next: index < ids.length - 1 ? ids[index + 1] : undefined };
}
