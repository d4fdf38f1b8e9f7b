import { describe, expect, it } from 'vitest';
import { MAX_WIND_LEVEL, WIND_LEVEL_THRESHOLDS, windLevel, windSector } from './wind';

describe('windLevel', () => {
  it('has the seventeen SPEC thresholds', () => {
    expect(WIND_LEVEL_THRESHOLDS).toEqual([0.3, 1.6, 3.4, 5.5, 8, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7, 37, 41.5, 46.2, 51, 56.1]);
    expect(MAX_WIND_LEVEL).toBe(17);
  });

  it.each([
    [0, 0],
    [0.2, 0],
    [0.3, 1],
    [1.5, 1],
    [1.6, 2],
    [3.3, 2],
    [3.4, 3],
    [5.5, 4],
    [7.9, 4],
    [8, 5],
    [10.8, 6],
    [13.8, 6],
    [13.9, 7],
    [17.2, 8],
    [20.8, 9],
    [24.5, 10],
    [28.5, 11],
    [32.6, 11],
    [32.7, 12],
    [37, 13],
    [41.5, 14],
    [46.2, 15],
    [51, 16],
    [56, 16],
    [56.1, 17],
    [75, 17],
  ])('%s m/s is level %s', (speed, level) => {
    expect(windLevel(speed)).toBe(level);
  });

  it('puts a speed exactly on every threshold into the higher level', () => {
    WIND_LEVEL_THRESHOLDS.forEach((threshold, index) => {
      expect(windLevel(threshold)).toBe(index + 1);
      expect(windLevel(threshold - 0.01)).toBe(index);
    });
  });

  it.each([null, undefined, Number.NaN, -1, Number.POSITIVE_INFINITY])('has no level for %s', (speed) => {
    expect(windLevel(speed)).toBeNull();
  });
});

describe('windSector', () => {
  it.each([
    [0, 'N'],
    [360, 'N'],
    [22.4, 'N'],
    [337.5, 'N'],
    [22.5, 'NE'],
    [45, 'NE'],
    [67.4, 'NE'],
    [67.5, 'E'],
    [90, 'E'],
    [135, 'SE'],
    [180, 'S'],
    [202.4, 'S'],
    [202.5, 'SW'],
    [225, 'SW'],
    [270, 'W'],
    [315, 'NW'],
    [337.4, 'NW'],
    [-45, 'NW'],
    [405, 'NE'],
  ])('%s° is %s', (degrees, sector) => {
    expect(windSector(degrees)).toBe(sector);
  });

  it('gives each of the eight sectors 45°, 22.5° either side of its compass point', () => {
    const counts = new Map<string, number>();
    for (let tenth = 0; tenth < 3600; tenth += 1) {
      const sector = windSector(tenth / 10)!;
      counts.set(sector, (counts.get(sector) ?? 0) + 1);
    }
    expect([...counts.values()]).toEqual(Array(8).fill(450));
  });

  it.each([null, undefined, Number.NaN])('has no sector for %s', (degrees) => {
    expect(windSector(degrees)).toBeNull();
  });
});
