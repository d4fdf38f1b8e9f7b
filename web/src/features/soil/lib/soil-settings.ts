/**
 * The soil settings rules of SPEC.md §5 and docs/analyses.md, checked in the form before the
 * server checks them again. Each problem names the field (as the form's name path) and an i18n
 * key of the poi namespace with its values.
 */
export interface SettingsNode {
  depth: number;
  fieldCapacity: number | null | undefined;
  unitWeight: number | null | undefined;
}

export type SettingsErrorKey = `soilSettings.errors.${'fcRequired' | 'fcPositive' | 'fcMax' | 'uwRequired' | 'uwPositive' | 'uwMax' | 'layerDifference' | 'area' | 'variety'}`;

export interface SettingsProblem {
  field: (string | number)[];
  key: SettingsErrorKey;
  values: Record<string, string | number>;
}

/** Adjacent layers' field capacities may differ by at most this many percentage points. */
export const MAX_LAYER_DIFFERENCE = 4;
export const MAX_UNIT_WEIGHT = 2.65;
export const MAX_AREA_MU = 1_000_000;
export const MAX_VARIETY = 32;

const present = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** Floating point noise (30.1 − 26.1) must not turn 4.0 into a refusal. */
const round = (value: number) => Math.round(value * 1000) / 1000;

export function checkNodes(nodes: readonly SettingsNode[]): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  nodes.forEach((node, i) => {
    const depth = node.depth;
    const fc = node.fieldCapacity;
    if (!present(fc)) problems.push({ field: ['nodes', i, 'fieldCapacity'], key: 'soilSettings.errors.fcRequired', values: { depth } });
    else if (fc <= 0) problems.push({ field: ['nodes', i, 'fieldCapacity'], key: 'soilSettings.errors.fcPositive', values: { depth } });
    else if (fc > 100) problems.push({ field: ['nodes', i, 'fieldCapacity'], key: 'soilSettings.errors.fcMax', values: { depth } });
    const uw = node.unitWeight;
    if (!present(uw)) problems.push({ field: ['nodes', i, 'unitWeight'], key: 'soilSettings.errors.uwRequired', values: { depth } });
    else if (uw <= 0) problems.push({ field: ['nodes', i, 'unitWeight'], key: 'soilSettings.errors.uwPositive', values: { depth } });
    else if (uw >= MAX_UNIT_WEIGHT) problems.push({ field: ['nodes', i, 'unitWeight'], key: 'soilSettings.errors.uwMax', values: { depth } });
  });
  const sorted = nodes.map((node, i) => ({ ...node, i })).sort((a, b) => a.depth - b.depth);
  for (let k = 1; k < sorted.length; k++) {
    const upper = sorted[k - 1];
    const lower = sorted[k];
    if (!present(upper.fieldCapacity) || !present(lower.fieldCapacity) || upper.fieldCapacity <= 0 || lower.fieldCapacity <= 0) continue;
    const difference = round(Math.abs(lower.fieldCapacity - upper.fieldCapacity));
    if (difference > MAX_LAYER_DIFFERENCE && !problems.some((p) => p.field[1] === lower.i && p.field[2] === 'fieldCapacity')) {
      problems.push({
        field: ['nodes', lower.i, 'fieldCapacity'],
        key: 'soilSettings.errors.layerDifference',
        values: { upper: upper.depth, lower: lower.depth, difference, max: MAX_LAYER_DIFFERENCE },
      });
    }
  }
  return problems;
}

export function checkArea(area: number | null | undefined): SettingsProblem | null {
  if (!present(area)) return null;
  if (area <= 0 || area > MAX_AREA_MU) return { field: ['areaMu'], key: 'soilSettings.errors.area', values: { max: MAX_AREA_MU } };
  return null;
}

export function checkVariety(variety: string | null | undefined): SettingsProblem | null {
  if (variety && [...variety].length > MAX_VARIETY) return { field: ['cropVariety'], key: 'soilSettings.errors.variety', values: { max: MAX_VARIETY } };
  return null;
}
