import { describe, expect, it } from 'vitest';
import { setFarmZone } from '@/lib/farm-time';
import { deviceListPath, hourBars, notDeployed, statusSegments } from './overview';

describe('statusSegments', () => {
  it('keeps the four operational statuses and puts every other under not deployed', () => {
    const s = statusSegments({ online: 6, offline: 2, idle: 1, repair: 1 });
    expect(s.map((x) => [x.group, x.count])).toEqual([
      ['online', 6],
      ['lowpower', 0],
      ['offline', 2],
      ['fault', 0],
      ['notDeployed', 2],
    ]);
    expect(s.reduce((sum, x) => sum + x.percent, 0)).toBeCloseTo(100);
    expect(s[0].percent).toBeCloseTo(60);
  });
  it('has no shares without devices', () => {
    expect(statusSegments({}).every((x) => x.percent === 0 && x.count === 0)).toBe(true);
  });
  it('counts the devices not in use', () => {
    expect(notDeployed({ online: 3, scrap: 2, transit: 1 })).toBe(3);
  });
});

describe('deviceListPath', () => {
  it('links to the list filtered by status or type', () => {
    expect(deviceListPath({ status: 'offline' })).toBe('/apps/devices?status=offline');
    expect(deviceListPath({ typeId: 5 })).toBe('/apps/devices?typeId=5');
    expect(deviceListPath({})).toBe('/apps/devices');
  });
});

describe('hourBars', () => {
  it('labels each hour on the farm clock and scales to the busiest', () => {
    setFarmZone('Asia/Shanghai');
    // 2026-11-26 12:30 in Shanghai is 04:30 UTC.
    const at = Date.UTC(2026, 10, 26, 4, 30);
    const bars = hourBars([0, 2, 4], at);
    expect(bars.map((b) => b.label)).toEqual(['09:30', '10:30', '11:30']);
    expect(bars.map((b) => b.percent)).toEqual([0, 50, 100]);
    expect(bars[2].start + 3_600_000).toBe(at);
  });
  it('draws no heights when nothing happened', () => {
    expect(hourBars([0, 0], 0).every((b) => b.percent === 0)).toBe(true);
  });
});
