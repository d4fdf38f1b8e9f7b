import { describe, expect, it } from 'vitest';
import { wgs84ToGcj02 } from '@/lib/geo';
import { buildClusterIndex, CLUSTER_MAX_ZOOM, countGroups, devicesAt, itemsInView, placeDevices } from './cluster-index';
import type { MapDevice, MapGroup } from './types';

function device(id: number, lng: number | null, lat: number | null, group: MapGroup = 'working'): MapDevice {
  return { id, hashId: `h${id}`, sn: `SN${id}`, name: `D${id}`, typeId: 1, page: 'moisture', status: 'online', group, lng, lat, lastReportTime: null };
}

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

describe('placing devices', () => {
  it('keeps WGS84 for WGS84 tiles, and counts devices without a position', () => {
    const { placed, unplaced } = placeDevices([device(1, 116.4, 39.9), device(2, null, null), device(3, 116.5, null)], 'wgs84');
    expect(placed.map((p) => [p.device.id, p.lng, p.lat])).toEqual([[1, 116.4, 39.9]]);
    expect(unplaced).toBe(2);
  });

  it('converts to GCJ-02 for Chinese tiles, and leaves points outside China alone', () => {
    const { placed } = placeDevices([device(1, 116.4, 39.9), device(2, 2.35, 48.85)], 'gcj02');
    expect([placed[0].lng, placed[0].lat]).toEqual(wgs84ToGcj02(116.4, 39.9));
    expect([placed[0].lng, placed[0].lat]).not.toEqual([116.4, 39.9]);
    expect([placed[1].lng, placed[1].lat]).toEqual([2.35, 48.85]);
  });
});

describe('cluster index', () => {
  // A 100 × 100 grid of devices about 1 km apart: ten thousand, a fifth of them faulty.
  const many = Array.from({ length: 10_000 }, (_, i) =>
    device(i + 1, 116 + (i % 100) * 0.01, 37 + Math.floor(i / 100) * 0.01, i % 5 === 0 ? 'fault' : 'working'),
  );
  const { placed } = placeDevices(many, 'wgs84');
  const index = buildClusterIndex(placed);

  it('draws ten thousand devices as a handful of clusters far out, and counts every one', () => {
    const items = itemsInView(index, placed, WORLD, 5);
    expect(items.length).toBeLessThan(10);
    const total = items.reduce((sum, item) => sum + (item.kind === 'cluster' ? item.count : 1), 0);
    expect(total).toBe(10_000);
    const faults = items.reduce((sum, item) => sum + (item.kind === 'cluster' ? item.counts.fault : item.placed.device.group === 'fault' ? 1 : 0), 0);
    expect(faults).toBe(2_000);
  });

  it('shows only what is in view', () => {
    // About 0.05° square in one corner of the grid: a 6 × 6 block of devices.
    const items = itemsInView(index, placed, [115.995, 36.995, 116.055, 37.055], CLUSTER_MAX_ZOOM + 1);
    expect(items.every((item) => item.kind === 'device')).toBe(true);
    expect(items).toHaveLength(36);
  });

  it('keeps cluster counts per group consistent with the cluster size', () => {
    for (const item of itemsInView(index, placed, WORLD, 9)) {
      if (item.kind === 'cluster') expect(item.counts.working + item.counts.fault + item.counts.notDeployed).toBe(item.count);
    }
  });

  it('clamps a view that runs past the date line', () => {
    expect(itemsInView(index, placed, [-400, -85, 400, 85], 3).length).toBeGreaterThan(0);
    expect(itemsInView(index, placed, [-200, -85, 200, 85], 3).length).toBeGreaterThan(0);
  });

  it('finds every device on one spot, like a host and its slave', () => {
    const { placed: pair } = placeDevices([device(1, 116.29253, 37.592321), device(2, 116.29253, 37.592321), device(3, 116.3, 37.6)], 'wgs84');
    expect(devicesAt(pair, 116.29253, 37.592321).map((p) => p.device.id)).toEqual([1, 2]);
  });

  it('counts devices per map group', () => {
    expect(countGroups([device(1, 0, 0), device(2, 0, 0, 'fault'), device(3, 0, 0, 'notDeployed'), device(4, 0, 0)])).toEqual({
      working: 2,
      fault: 1,
      notDeployed: 1,
    });
  });
});
