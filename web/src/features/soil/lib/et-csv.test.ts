import { describe, expect, test } from 'vitest';
import { etCsv } from './et-csv';

describe('ET export', () => {
  test('values cut to two decimals, missing as --', () => {
    expect(etCsv([{ date: '2026-11-22', et0: 1.278, kc: null, etc: null }, { date: '2026-11-23', et0: 2.5, kc: 1.159, etc: 2.8975, stage: 'mid' }])).toBe(
      'date,et0_mm,kc,etc_mm,stage\n2026-11-22,1.27,--,--,\n2026-11-23,2.5,1.15,2.89,mid\n',
    );
  });
});
