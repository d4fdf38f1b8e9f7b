import { formatValue, MISSING } from '@/lib/format';
import type { ReadingIndex } from '@/lib/telemetry/readings';
import type { ParamMeta } from '@/lib/telemetry/types';

/** A lithium cell under this voltage needs charging (SPEC §9). */
export const LOW_BATTERY_VOLTS = 3.2;
/** How long a low cell must charge at least (SPEC §9). */
export const CHARGE_HOURS = 4;

/** Whether SPEC §9's charging advice applies: a 3.6 V lithium cell under 3.2 V. Solar 12 V packs never qualify. */
export function needsCharging(volts: number | null | undefined, solar: boolean): boolean {
  if (volts === null || volts === undefined || !Number.isFinite(volts)) return false;
  return !solar && volts < LOW_BATTERY_VOLTS;
}

/** One depth of a per-node parameter, with where its value sits between the catalogue's bounds. */
export interface DepthRow {
  depth: number;
  value: number | null;
  text: string;
  /** 0…1 of the bar; 0 without a value. */
  share: number;
  time: number | null;
}

/** The latest reading of a per-node parameter at each depth, shallowest first. */
export function depthRows(readings: ReadingIndex, param: Pick<ParamMeta, 'id' | 'precision' | 'min' | 'max'>, nodes: readonly number[], scaleMax?: number): DepthRow[] {
  const byNode = readings.get(param.id);
  const top = scaleMax ?? param.max;
  const span = top - param.min;
  return [...nodes]
    .sort((a, b) => a - b)
    .map((depth) => {
      const reading = byNode?.get(depth);
      const value = reading?.value ?? null;
      const share = value === null || span <= 0 ? 0 : Math.min(1, Math.max(0, (value - param.min) / span));
      return { depth, value, text: formatValue(value, param.precision), share, time: reading?.time ?? null };
    });
}

/**
 * The bar scale of soil moisture: a little above the wettest depth, rounded up to 10 %, so dry soil
 * (10–30 %) does not draw as slivers of a 0–100 % bar.
 */
export function moistureScale(values: readonly (number | null)[]): number {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return 100;
  return Math.min(100, Math.max(10, Math.ceil((Math.max(...present) * 1.2) / 10) * 10));
}

/** A figure on the phone: the parameter's name, value text and unit. */
export interface Figure {
  id: string;
  name: string;
  value: string;
  unit: string;
  time: number | null;
}

/** The surface readings of the given parameters, in the catalogue's order, those the type measures only. */
export function surfaceFigures(readings: ReadingIndex, params: readonly ParamMeta[], ids?: readonly string[]): Figure[] {
  const wanted = ids ? new Set(ids) : null;
  return params
    .filter((p) => !p.perNode && (!wanted || wanted.has(p.id)))
    .map((p) => {
      const reading = readings.get(p.id)?.get(0);
      const value = reading?.value ?? null;
      return { id: p.id, name: p.name, value: formatValue(value, p.precision), unit: value === null ? '' : p.unit, time: reading?.time ?? null };
    });
}

/** Whether a page would show only dashes: no reading at all. */
export function allMissing(figures: readonly Pick<Figure, 'value'>[]): boolean {
  return figures.every((f) => f.value === MISSING);
}
