import type { LatestReading, ParamMeta } from './types';

/** The latest readings by parameter and node depth. */
export type ReadingIndex = Map<string, Map<number, LatestReading>>;

export function indexReadings(list: readonly LatestReading[]): ReadingIndex {
  const index: ReadingIndex = new Map();
  for (const reading of list) {
    let byNode = index.get(reading.param);
    if (!byNode) index.set(reading.param, (byNode = new Map()));
    byNode.set(reading.node, reading);
  }
  return index;
}

/** A surface parameter's latest value, or null. */
export function latestValue(index: ReadingIndex, param: string): number | null {
  return index.get(param)?.get(0)?.value ?? null;
}

/** The catalogue's parameters that the device measures at the surface (not per depth). */
export function surfaceParams(params: readonly ParamMeta[]): ParamMeta[] {
  return params.filter((param) => !param.perNode);
}

export function depthParams(params: readonly ParamMeta[]): ParamMeta[] {
  return params.filter((param) => param.perNode);
}
