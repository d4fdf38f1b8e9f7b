/** Every status the list can show and filter by (docs/api.md, SPEC §4). */
export const DEVICE_STATUSES = [
  'online',
  'offline',
  'lowpower',
  'fault',
  'idle',
  'repair',
  'produce',
  'toDeliver',
  'transit',
  'deliver',
  'scrap',
] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** How the map colours a status. */
export const MAP_GROUPS = ['working', 'fault', 'notDeployed'] as const;
export type MapGroup = (typeof MAP_GROUPS)[number];

export const BELONGS = ['all', 'mine', 'shared'] as const;
export type Belong = (typeof BELONGS)[number];

/** Columns the server sorts by. */
export const SORT_KEYS = ['name', 'sn', 'type', 'status', 'lastReport', 'created'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

export interface Tag {
  tagId: number;
  tag: string;
}

/** A device as GET /apis/devices lists it. Times are unix milliseconds. */
export interface Device {
  id: number;
  poiId: number;
  deviceId: number;
  hashId: string;
  sn: string;
  name: string;
  typeId: number;
  typeName: string;
  model: string;
  category: string;
  /** The detail page kind, e.g. "tianqi". */
  page: string;
  slave: boolean;
  status: DeviceStatus;
  statusName: string;
  group: MapGroup;
  belong: Exclude<Belong, 'all'>;
  /** Volts. */
  battery: number | null;
  lowBattery: boolean;
  /** dBm. */
  signal: number | null;
  chargeVoltage: number | null;
  lastReportTime: number | null;
  location: string;
  /** WGS84. */
  lng: number | null;
  lat: number | null;
  altitude: number | null;
  installTime: number | null;
  tags: Tag[];
  faults: number[];
}

/** A device as GET /apis/map/all sends it: WGS84 coordinates, or null when it has none. */
export interface MapDevice {
  id: number;
  hashId: string;
  sn: string;
  name: string;
  typeId: number;
  page: string;
  status: DeviceStatus;
  group: MapGroup;
  lng: number | null;
  lat: number | null;
  lastReportTime: number | null;
}

export interface MapAll {
  list: MapDevice[];
  groups: Record<MapGroup, number>;
}

/** The editable part of a device: GET and PUT /apis/poi/{id}/profile. */
export interface DeviceProfile {
  name: string;
  location: string;
  lng: number | null;
  lat: number | null;
  altitude: number | null;
  installTime: number | null;
}

/** The tile source the server configures (GET /apis/map/config). */
export type { MapConfig } from '@/lib/map-config';
