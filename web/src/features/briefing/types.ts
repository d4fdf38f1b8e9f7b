/** Soil-moisture briefings as the /apis/soil_moisture calls carry them (SPEC §3 Soil briefing config). */

export const STAGES = ['seedling', 'critical', 'other'] as const;
export type Stage = (typeof STAGES)[number];

export const PERIODS = ['week', 'dekad'] as const;
export type Period = (typeof PERIODS)[number];

export const REPORT_LANGS = ['zh_CN', 'zh_TW', 'en_US'] as const;
export type ReportLang = (typeof REPORT_LANGS)[number];

/** SPEC §9: the briefing depth bands, cm. */
export const BANDS = [
  [0, 20],
  [20, 40],
  [40, 60],
] as const;

export function bandLabel(band: number): string {
  const [from, to] = BANDS[band - 1];
  return `${from}–${to} cm`;
}

export interface Region {
  name: string;
  deviceIds: number[];
}

export interface SoilDevice {
  deviceId: number;
  fieldCapacity?: number;
}

export interface Schedule {
  enabled: boolean;
  weekday: number;
  hour: number;
  minute: number;
}

export interface PresetInput {
  name: string;
  templateId: string;
  province: string;
  city: string;
  district: string;
  company: string;
  unitName: string;
  lang: ReportLang;
  regionList: Region[];
  depth1?: number[];
  depth2?: number[];
  depth3?: number[];
  zsDeviceIds: SoilDevice[];
  tqDeviceIds: number[];
  stage: Stage;
  referenceNode: number;
  period: Period;
  schedule: Schedule;
  recipients: string[];
}

export interface Preset extends PresetInput {
  configId: number;
  createTime: number;
  updateTime: number;
}

export interface Template {
  templateId: string;
  name: string;
  description: string;
  preset: PresetInput;
}

export interface Candidate {
  id: number;
  sn: string;
  name: string;
  typeId: number;
  typeName: string;
  kind: 'soil' | 'weather';
  nodes: number[];
  missingBands: number[];
}

export type Grade = 'none' | 'light' | 'moderate' | 'severe' | 'extreme' | '';

export interface Band {
  band: number;
  devices: number;
  theta: number | null;
  relative: number | null;
  index: number | null;
  grade: Grade;
  waterlogged: boolean;
  prevRelative: number | null;
  change: number | null;
  daily: (number | null)[];
}

export interface Advice {
  action: 'irrigate' | 'drain' | 'hold' | 'unknown';
  depthMm?: number;
  by?: string;
  projected?: number;
}

export interface RegionReport {
  name: string;
  devices: number;
  used: number;
  bands: Band[];
  grade: Grade;
  waterlogged: boolean;
  rain: number | null;
  advice: Advice;
}

export interface DeviceRow {
  id: number;
  sn: string;
  name: string;
  region: string;
  issue: Issue | '';
  grade: Grade;
}

export interface Report {
  configId: number;
  coefficient: number;
  name: string;
  unitName: string;
  begin: string;
  end: string;
  days: string[];
  regions: RegionReport[];
  devices: DeviceRow[];
  rain: number | null;
  forecast: { rain: number; et0: number } | null;
  forecastIssue: string;
}

export type JobStatus = 'queued' | 'running' | 'ready' | 'sent' | 'failed';

export interface Job {
  taskId: string;
  configId: number;
  format: 'pdf' | 'xlsx';
  status: JobStatus;
  progress: number;
  message?: string;
  reason?: string;
}

/** The preset's soil devices: every device of its regions, once. */
export function soilDevicesOf(regions: Region[], previous: SoilDevice[] = []): SoilDevice[] {
  const out: SoilDevice[] = [];
  for (const region of regions) {
    for (const id of region.deviceIds) {
      if (!out.some((d) => d.deviceId === id)) out.push(previous.find((d) => d.deviceId === id) ?? { deviceId: id });
    }
  }
  return out;
}

export type WeekdayKey = `weekday.${0 | 1 | 2 | 3 | 4 | 5 | 6}`;

/** The text key of a weekday 0 (Sunday) – 6. */
export function weekdayKey(day: number): WeekdayKey {
  return `weekday.${((day % 7) + 7) % 7}` as WeekdayKey;
}

export const ISSUES = ['unavailable', 'noData', 'incomplete', 'outOfRange', 'constant', 'noFieldCapacity'] as const;
export type Issue = (typeof ISSUES)[number];
