import Supercluster from 'supercluster';
import { wgs84ToGcj02 } from '@/lib/geo';
import type { MapConfig, MapDevice, MapGroup } from './types';

/** A device with a position, in the coordinate system of the tiles it is drawn on. */
export interface PlacedDevice {
  device: MapDevice;
  lng: number;
  lat: number;
}

/** Devices with coordinates, converted for the tiles; devices without any are counted apart. */
export function placeDevices(devices: MapDevice[], coords: MapConfig['coords']): { placed: PlacedDevice[]; unplaced: number } {
  const placed: PlacedDevice[] = [];
  let unplaced = 0;
  for (const device of devices) {
    const { lng, lat } = device;
    if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
      unplaced += 1;
      continue;
    }
    const [x, y] = coords === 'gcj02' ? wgs84ToGcj02(lng, lat) : [lng, lat];
    placed.push({ device, lng: x, lat: y });
  }
  return { placed, unplaced };
}

export type GroupCounts = Record<MapGroup, number>;

export function emptyCounts(): GroupCounts {
  return { working: 0, fault: 0, notDeployed: 0 };
}

export function countGroups(devices: { group: MapGroup }[]): GroupCounts {
  const counts = emptyCounts();
  for (const { group } of devices) if (group in counts) counts[group] += 1;
  return counts;
}

interface PointProps {
  /** Index into the placed devices. */
  index: number;
  group: MapGroup;
}

type ClusterProps = GroupCounts;

export type ClusterIndex = Supercluster<PointProps, ClusterProps>;

/** Beyond this zoom every device is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 16;
/** Devices closer than this many pixels merge into a cluster. */
export const CLUSTER_RADIUS = 60;

/** Indexes the devices once; clusters of any view are then found in well under a millisecond. */
export function buildClusterIndex(placed: PlacedDevice[]): ClusterIndex {
  const index = new Supercluster<PointProps, ClusterProps>({
    radius: CLUSTER_RADIUS,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: ({ group }) => ({ ...emptyCounts(), [group]: 1 }),
    reduce: (total, counts) => {
      total.working += counts.working;
      total.fault += counts.fault;
      total.notDeployed += counts.notDeployed;
    },
  });
  index.load(
    placed.map((p, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
      properties: { index: i, group: p.device.group },
    })),
  );
  return index;
}

export type MapItem =
  | { kind: 'cluster'; id: number; lng: number; lat: number; count: number; counts: GroupCounts }
  | { kind: 'device'; lng: number; lat: number; placed: PlacedDevice };

/** West, south, east, north. */
export type Bounds = [number, number, number, number];

/**
 * The clusters and single devices inside a view. Longitudes are clamped to one world: Leaflet's
 * bounds run past ±180 when zoomed far out.
 */
export function itemsInView(index: ClusterIndex, placed: PlacedDevice[], [west, south, east, north]: Bounds, zoom: number): MapItem[] {
  const bbox: Bounds =
    east - west >= 360 ? [-180, south, 180, north] : [Math.max(-180, west), Math.max(-90, south), Math.min(180, east), Math.min(90, north)];
  return index.getClusters(bbox, Math.round(zoom)).map((feature): MapItem => {
    const [lng, lat] = feature.geometry.coordinates;
    const props = feature.properties;
    if ('cluster' in props && props.cluster) {
      const { cluster_id: id, point_count: count, working, fault, notDeployed } = props;
      return { kind: 'cluster', id, lng, lat, count, counts: { working, fault, notDeployed } };
    }
    return { kind: 'device', lng, lat, placed: placed[(props as PointProps).index] };
  });
}

/** Every placed device at exactly the same spot as this one (a host and its slave share one). */
export function devicesAt(placed: PlacedDevice[], lng: number, lat: number): PlacedDevice[] {
  return placed.filter((p) => Math.abs(p.lng - lng) < 1e-9 && Math.abs(p.lat - lat) < 1e-9);
}
