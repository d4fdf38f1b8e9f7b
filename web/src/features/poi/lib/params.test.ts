import { describe, expect, it } from 'vitest';
import { poiDetailPath } from './detail-path';
import { isAmount, signalBars } from './params';

describe('signalBars', () => {
  it.each([
    [-60, 4],
    [-80, 4],
    [-80.5, 3],
    [-90, 3],
    [-95, 2],
    [-100, 2],
    [-110, 1],
    [-111, 0],
    [-140, 0],
  ])('%s dBm shows %s bars', (dbm, bars) => {
    expect(signalBars(dbm)).toBe(bars);
  });

  it('shows nothing for a missing reading', () => {
    expect(signalBars(null)).toBeNull();
    expect(signalBars(Number.NaN)).toBeNull();
  });
});

describe('isAmount', () => {
  it('is true for parameters summed over a day', () => {
    expect(isAmount({ daily: ['sum'] })).toBe(true);
    expect(isAmount({ daily: ['avg', 'min', 'max'] })).toBe(false);
  });
});

describe('poiDetailPath', () => {
  it('builds the page of each kind, the rain gauge without an id', () => {
    expect(poiDetailPath({ page: 'tianqi', hashId: 'ab12', id: 7 })).toBe('/apps/poi/tianqi/ab12/7');
    expect(poiDetailPath({ page: 'zhi-shang', hashId: 'cd34', id: 3 })).toBe('/apps/poi/zhi-shang/cd34/3');
    expect(poiDetailPath({ page: 'pluviometer', hashId: 'e6', id: 11 })).toBe('/apps/poi/pluviometer/e6');
    expect(poiDetailPath({ page: 'unknown', hashId: 'x', id: 1 })).toBeNull();
  });
});
