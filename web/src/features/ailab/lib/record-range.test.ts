import dayjs from 'dayjs';
import { afterEach, describe, expect, test } from 'vitest';
import { setFarmZone } from '@/lib/farm-time';
import { recordRange } from './record-range';

describe('recordRange', () => {
  afterEach(() => setFarmZone(null));

  test('picked dates are whole farm days: from the first midnight to the midnight after the last', () => {
    setFarmZone('Asia/Shanghai');
    const range = recordRange([dayjs('2026-11-20 15:30'), dayjs('2026-11-22 01:00')]);
    expect(range.begin).toBe(Date.UTC(2026, 10, 19, 16));
    expect(range.end).toBe(Date.UTC(2026, 10, 22, 16));
  });

  test('the farm zone decides, not the browser: a zone west of UTC moves the bounds the other way', () => {
    setFarmZone('America/Sao_Paulo');
    const range = recordRange([dayjs('2026-11-20'), dayjs('2026-11-20')]);
    expect(range.begin).toBe(Date.UTC(2026, 10, 20, 3));
    expect(range.end).toBe(Date.UTC(2026, 10, 21, 3));
  });

  test('a missing end or no range leaves that bound open', () => {
    setFarmZone('UTC');
    expect(recordRange([dayjs('2026-01-01'), null])).toEqual({ begin: Date.UTC(2026, 0, 1), end: undefined });
    expect(recordRange(null)).toEqual({ begin: undefined, end: undefined });
  });
});
