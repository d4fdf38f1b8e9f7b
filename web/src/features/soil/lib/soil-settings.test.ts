import { describe, expect, test } from 'vitest';
import { checkArea, checkNodes, checkVariety } from './soil-settings';

const node = (depth: number, fieldCapacity: number | null, unitWeight: number | null) => ({ depth, fieldCapacity, unitWeight });

describe('soil settings rules', () => {
  test('valid settings pass, 4.0 points between layers included', () => {
    expect(checkNodes([node(10, 26.1, 1.35), node(20, 30.1, 1.4), node(30, 30, 1.4)])).toEqual([]);
  });

  test('field capacity and unit weight are required', () => {
    const problems = checkNodes([node(10, null, null)]);
    expect(problems.map((p) => p.key)).toEqual(['soilSettings.errors.fcRequired', 'soilSettings.errors.uwRequired']);
    expect(problems[0].field).toEqual(['nodes', 0, 'fieldCapacity']);
    expect(problems[0].values).toEqual({ depth: 10 });
  });

  test('both must be greater than 0 and within their bounds', () => {
    expect(checkNodes([node(10, 0, 0)]).map((p) => p.key)).toEqual(['soilSettings.errors.fcPositive', 'soilSettings.errors.uwPositive']);
    expect(checkNodes([node(10, -1, -2)]).map((p) => p.key)).toEqual(['soilSettings.errors.fcPositive', 'soilSettings.errors.uwPositive']);
    expect(checkNodes([node(10, 100.5, 2.65)]).map((p) => p.key)).toEqual(['soilSettings.errors.fcMax', 'soilSettings.errors.uwMax']);
    expect(checkNodes([node(10, 100, 2.64)])).toEqual([]);
  });

  test('adjacent layers may differ by at most 4 points, blamed on the deeper', () => {
    const problems = checkNodes([node(20, 36.5, 1.3), node(10, 30, 1.3)]);
    expect(problems).toEqual([
      { field: ['nodes', 0, 'fieldCapacity'], key: 'soilSettings.errors.layerDifference', values: { upper: 10, lower: 20, difference: 6.5, max: 4 } },
    ]);
    expect(checkNodes([node(10, 30, 1.3), node(20, 25.9, 1.3)])).toHaveLength(1);
  });

  test('a missing layer does not count as a difference', () => {
    expect(checkNodes([node(10, 30, 1.3), node(20, null, 1.3)]).map((p) => p.key)).toEqual(['soilSettings.errors.fcRequired']);
  });

  test('area and variety', () => {
    expect(checkArea(undefined)).toBeNull();
    expect(checkArea(12.5)).toBeNull();
    expect(checkArea(0)?.key).toBe('soilSettings.errors.area');
    expect(checkArea(1_000_001)?.key).toBe('soilSettings.errors.area');
    expect(checkVariety('郑单958')).toBeNull();
    expect(checkVariety('x'.repeat(33))?.key).toBe('soilSettings.errors.variety');
  });
});
