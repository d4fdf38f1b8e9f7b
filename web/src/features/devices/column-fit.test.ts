import { describe, expect, it } from 'vitest';
import { fittingColumns, type FitColumn } from './column-fit';

const columns: FitColumn[] = [
  { key: 'name', width: 140, priority: 0 },
  { key: 'sn', width: 116, priority: 3 },
  { key: 'type', width: 180, priority: 2 },
  { key: 'status', width: 84, priority: 0 },
  { key: 'lastReport', width: 108, priority: 1 },
  { key: 'actions', width: 150, priority: 0 },
];

describe('fittingColumns', () => {
  it('drops the least important columns first, keeping the essential ones', () => {
    expect([...fittingColumns(columns, 530, 40)].sort()).toEqual(['actions', 'lastReport', 'name', 'status']);
    expect([...fittingColumns(columns, 420, 40)].sort()).toEqual(['actions', 'name', 'status']);
  });

  it('adds columns in priority order while they fit, without skipping one', () => {
    expect([...fittingColumns(columns, 702, 40)].sort()).toEqual(['actions', 'lastReport', 'name', 'status', 'type']);
    expect([...fittingColumns(columns, 817, 40)].sort()).toEqual(['actions', 'lastReport', 'name', 'status', 'type']);
    expect(fittingColumns(columns, 818, 40).size).toBe(6);
  });

  it('shows every column while the width is unknown', () => {
    expect(fittingColumns(columns, 0).size).toBe(6);
  });
});
