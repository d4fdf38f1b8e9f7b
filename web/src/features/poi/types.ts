/** Detail page kinds: the route segment of /apps/poi/{kind}/… (docs/device-types.md). */
export { DETAIL_PAGES as POI_KINDS, isDetailPage as isPoiKind, type DetailPage as PoiKind } from '@/lib/detail-path';

/** What the caller may do with a device besides reading it. */
export interface DeviceRight {
  owner: boolean;
  rename: boolean;
  settings: boolean;
  export: boolean;
}

export interface DeviceConfig {
  /** Minutes between reports; 0 keeps the type's interval. */
  reportInterval: number;
}

/** GET /apis/poi/info: a detail page's header. Times are unix milliseconds. */
export interface DeviceInfo {
  id: number;
  hashId: string;
  sn: string;
  name: string;
  typeId: number;
  typeName: string;
  model: string;
  category: string;
  page: string;
  slave: boolean;
  status: string;
  statusName: string;
  group: string;
  battery: number | null;
  lowBattery: boolean;
  signal: number | null;
  chargeVoltage: number | null;
  lastReportTime: number | null;
  location: string;
  lng: number | null;
  lat: number | null;
  altitude: number | null;
  installTime: number | null;
  right?: DeviceRight;
  config: DeviceConfig;
}

/** GET /apis/poi/{id}/intro. */
export interface DeviceIntro {
  id: number;
  sn: string;
  typeId: number;
  typeName: string;
  model: string;
  category: string;
  page: string;
  /** Minutes between reports, with the device's own setting applied. */
  interval: number;
  solar: boolean;
  camera: boolean;
  /** Node depths in cm. */
  nodes: number[];
  slave: boolean;
}

/** GET /apis/poi/{id}/indicator. */
export interface DeviceIndicator {
  battery: number | null;
  lowBattery: boolean;
  /** The charging advice, localized, when the battery is low; empty otherwise. */
  advice: string;
  signal: number | null;
  chargeVoltage: number | null;
  lastReportTime: number | null;
  status: string;
  faults: number[];
}

/** GET /apis/poi/{id}/sales. */
export interface DeviceSales {
  installTime: number | null;
  serviceUntil: number | null;
  warrantyUntil: number | null;
  serviceExpired: boolean;
  warrantyExpired: boolean;
  registrationTime: number;
}

/** GET and PUT /apis/poi/{id}/profile. */
export interface DeviceProfile {
  name: string;
  location: string;
  lng: number | null;
  lat: number | null;
  altitude: number | null;
  installTime: number | null;
}

export type DailyAgg = 'avg' | 'min' | 'max' | 'sum' | 'last';

/** One parameter of the type's catalogue. */
export interface ParamMeta {
  id: string;
  name: string;
  /** Empty for counts and states. */
  unit: string;
  /** Decimals the sensor resolves. */
  precision: number;
  perNode: boolean;
  /** Daily statistics; the first is the one a daily chart shows. */
  daily: DailyAgg[];
  min: number;
  max: number;
}

/** GET /apis/poi/{id}/datapoints/v2/metadata. */
export interface ParamCatalogue {
  typeId: number;
  page: string;
  nodes: number[];
  params: ParamMeta[];
}

/** One latest reading; node 0 is a surface (not per-depth) parameter. */
export interface LatestReading {
  param: string;
  name: string;
  unit: string;
  precision: number;
  node: number;
  time: number;
  value: number;
}

/** GET /apis/poi/{id}/detect. */
export interface DeviceDetect {
  lastReportTime: number | null;
  list: LatestReading[];
}

export type HistoryDim = 'raw' | 'daily';
export type NodeAggregation = 'none' | 'average' | 'max' | 'min';

/** One series of GET /apis/poi/{id}/datapoints/v3: columns of times and values. */
export interface HistorySeries {
  param: string;
  /** The depth; 0 for surface parameters and for series aggregated across depths. */
  node: number;
  aggregated?: string;
  name: string;
  unit: string;
  precision: number;
  /** Daily: which statistic `v` holds. */
  agg?: DailyAgg;
  /** Points before downsampling. */
  total: number;
  t: number[];
  v: number[];
  /** Daily only: the day's minimum and maximum. */
  min?: number[];
  max?: number[];
  sampled: boolean;
}

export interface HistoryResult {
  begin: number;
  end: number;
  dim: HistoryDim;
  aggregated: NodeAggregation;
  points: number;
  series: HistorySeries[];
}

/** GET /apis/poi/{id}/images: one camera image. */
export interface DeviceImage {
  id: number;
  contentType: string;
  size: number;
  time: number;
  /** Where the image bytes are served, under /apis. */
  url: string;
}

/** GET /apis/poi/topology: a host and its slave units. */
export interface DeviceTopology {
  host: DeviceInfo;
  slaves: DeviceInfo[];
}

export type ExportFormat = 'xlsx' | 'csv';
export type ExportStatus = 'queued' | 'running' | 'sent' | 'failed';

/** POST /apis/poi/{id}/datapoints/export. */
export interface ExportRequest {
  params: string[];
  nodes?: number[];
  email: string;
  begin: number;
  end: number;
  dim: HistoryDim;
  format: ExportFormat;
}

/** GET /apis/poi/{id}/datapoints/export/{taskId}. */
export interface ExportTask {
  taskId: string;
  status: ExportStatus;
  /** 0…100. */
  progress: number;
  rows: number;
  attempts: number;
  /** The server's localized reason when the task failed. */
  error: string;
  createdAt: number;
  finishedAt: number | null;
}
