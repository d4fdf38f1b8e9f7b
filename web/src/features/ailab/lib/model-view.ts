import type { ModelBox, ModelKind, ModelValue, SampleOutput } from '../types';
import type { Size } from './geometry';

/** A package's size for people: bytes, KB or MB (of 1,024), one decimal past a kilobyte. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '--';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A time taken: two decimals under 10 ms, one under 100 ms, whole milliseconds above. */
export function formatMillis(millis: number): string {
  if (!Number.isFinite(millis) || millis < 0) return '--';
  const digits = millis < 10 ? 2 : millis < 100 ? 1 : 0;
  return `${millis.toFixed(digits)} ms`;
}

/** Drops the zeros a fixed-point number ends with: 12.0 → 12, 0.50 → 0.5. */
function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * An element's value as a model's kind means it: a count with one decimal (a density model counts
 * in fractions), a number of boxes whole, a class score as a percentage.
 */
export function formatModelValue(kind: ModelKind, value: number): string {
  if (!Number.isFinite(value)) return '--';
  switch (kind) {
    case 'boxes':
      return String(Math.round(value));
    case 'classes':
      return `${trimZeros((value * 100).toFixed(1))} %`;
    default:
      return trimZeros(value.toFixed(1));
  }
}

/** Where a box goes on the picture as shown, in percentages of its size: kept on the picture; null when nothing of it is. */
export function boxPlacement(box: Pick<ModelBox, 'x' | 'y' | 'w' | 'h'>, { width, height }: Size): { left: string; top: string; width: string; height: string } | null {
  if (width <= 0 || height <= 0) return null;
  const x1 = Math.max(0, box.x);
  const y1 = Math.max(0, box.y);
  const x2 = Math.min(width, box.x + box.w);
  const y2 = Math.min(height, box.y + box.h);
  if (x2 <= x1 || y2 <= y1) return null;
  const percent = (value: number, of: number) => `${trimZeros(((value / of) * 100).toFixed(3))}%`;
  return { left: percent(x1, width), top: percent(y1, height), width: percent(x2 - x1, width), height: percent(y2 - y1, height) };
}

/** Each element's values added over the samples of a test, in the model's element order. */
export function elementTotals(outputs: readonly Pick<SampleOutput, 'values'>[]): ModelValue[] {
  const totals = new Map<string, ModelValue>();
  for (const output of outputs) {
    for (const value of output.values) {
      const total = totals.get(value.identifier);
      if (total) total.value += value.value;
      else totals.set(value.identifier, { ...value });
    }
  }
  return [...totals.values()];
}
