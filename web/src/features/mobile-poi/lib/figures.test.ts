import { describe, expect, it } from 'vitest';
import { indexReadings } from '@/lib/telemetry/readings';
import type { LatestReading, ParamMeta } from '@/lib/telemetry/types';
import { allMissing, depthRows, moistureScale, needsCharging, surfaceFigures } from './figures';

const reading = (param: string, node: number, value: number, time = 1000): LatestReading => ({ param, name: param, unit: '', precision: 1, node, time, value });
const meta = (id: string, extra: Partial<ParamMeta> = {}): ParamMeta => ({ id, name: id, unit: '%', precision: 1, perNode: false, daily: ['avg'], min: 0, max: 100, ...extra });

describe('needsCharging (SPEC §9)', () => {
  it('advises charging a lithium cell under 3.2 V, not at 3.2 V, never a solar pack', () => {
    expect(needsCharging(3.19, false)).toBe(true);
    expect(needsCharging(3.2, false)).toBe(false);
    expect(needsCharging(3.0, true)).toBe(false);
    expect(needsCharging(null, false)).toBe(false);
    expect(needsCharging(Number.NaN, false)).toBe(false);
  });
});

describe('depthRows', () => {
  const readings = indexReadings([reading('soilMoisture', 30, 24.46), reading('soilMoisture', 10, 12), reading('soilTemp', 10, 8)]);
  const moisture = meta('soilMoisture', { perNode: true });

  it('lists every depth shallowest first, a missing depth as --, with the bar share of the scale', () => {
    const rows = depthRows(readings, moisture, [30, 10, 20], 40);
    expect(rows.map((r) => r.depth)).toEqual([10, 20, 30]);
    expect(rows.map((r) => r.text)).toEqual(['12', '--', '24.4']);
    expect(rows[0].share).toBeCloseTo(0.3);
    expect(rows[1].share).toBe(0);
    expect(rows[2].share).toBeCloseTo(24.46 / 40);
  });

  it('clamps a share to the bar', () => {
    expect(depthRows(readings, moisture, [30], 20)[0].share).toBe(1);
  });
});

describe('moistureScale', () => {
  it('is a little above the wettest depth, in tens, between 10 and 100', () => {
    expect(moistureScale([12, 24.5, null])).toBe(30);
    expect(moistureScale([2])).toBe(10);
    expect(moistureScale([95])).toBe(100);
    expect(moistureScale([null])).toBe(100);
  });
});

describe('surfaceFigures', () => {
  const params = [meta('airTemp', { unit: '°C' }), meta('soilMoisture', { perNode: true }), meta('rainfall', { unit: 'mm' })];
  it('gives the surface readings in catalogue order, unit only with a value', () => {
    const figures = surfaceFigures(indexReadings([reading('airTemp', 0, 21.37, 5)]), params);
    expect(figures).toEqual([
      { id: 'airTemp', name: 'airTemp', value: '21.3', unit: '°C', time: 5 },
      { id: 'rainfall', name: 'rainfall', value: '--', unit: '', time: null },
    ]);
    expect(allMissing(figures)).toBe(false);
    expect(allMissing(figures.slice(1))).toBe(true);
  });
  it('keeps to the ids asked for', () => {
    expect(surfaceFigures(indexReadings([]), params, ['rainfall']).map((f) => f.id)).toEqual(['rainfall']);
  });
});
