import type { HistoryDim, LatestReading } from '@/lib/telemetry/types';

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
  /** Minutes between reports, 1–1440; null keeps the type's interval. */
  reportInterval: number | null;
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

/** GET /apis/poi/{id}/detect. */
export interface DeviceDetect {
  lastReportTime: number | null;
  list: LatestReading[];
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
export type ExportStatus = 'queued' | 'running' | 'sent' | 'ready' | 'failed';

/** GET /apis/export/config: whether files are mailed, or (no mail server) offered here for download. */
export interface ExportConfig {
  mail: boolean;
  /** How long a file for download is kept after it is ready. */
  fileKeepHours: number;
}

/** POST /apis/poi/{id}/datapoints/export. */
export interface ExportRequest {
  params: string[];
  nodes?: number[];
  /** Absent when the server keeps the file for download instead of mailing it. */
  email?: string;
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

/** A device certificate as listed (GET /apis/poi/{id}/certificates). Times are unix milliseconds. */
export interface DeviceCertificate {
  /** Hex serial number. */
  serial: string;
  createdAt: number;
  notAfter: number;
  /** null while the certificate is valid. */
  revokedAt: number | null;
}

/** A newly issued certificate (POST /apis/poi/{id}/certificate): PEM texts, the key shown only this once. */
export interface IssuedCertificate extends DeviceCertificate {
  sn: string;
  certificate: string;
  key: string;
  /** The device CA that signed the certificate. */
  ca: string;
}
