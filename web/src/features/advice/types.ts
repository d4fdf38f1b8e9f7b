/** The shapes of /apis/ai/* (internal/advice; docs/advice.md). Times are milliseconds. */

/** The readings a fact used: one parameter of one device over a time range. */
export interface Source {
  /** 0 for the forecast, which belongs to no device. */
  deviceId?: number;
  param: string;
  node?: number;
  from: number;
  to: number;
  /** values, last, sum, daily, daily min/max, sum per 24 h, forecast. */
  agg: string;
  values?: { at: number; value: number }[];
  value?: number;
  count: number;
}

export interface DeviceRef {
  id: number;
  name: string;
  sn: string;
  typeId: number;
}

/** A soil device's root zone by the FAO-56 daily balance started from the probes' last reading. */
export interface Water {
  deviceId: number;
  rootDepthCm: number;
  rootDepthFound: boolean;
  fieldCapacity: number;
  moisture: number;
  relative: number;
  drought: string;
  probeAt: number;
  probeDepletion: number;
  rainSince: number;
  etcRate: number | null;
  etcSource?: string;
  hoursSince: number;
  etcSince: number;
  depletion: number;
  raw: number;
  refillRelative: number;
  needsWater: boolean;
  waterlogged: boolean;
  areaMu?: number;
  sources: Source[];
}

export interface ETWeek {
  stationId: number;
  days: { day: string; et0: number; kc: number | null; etc: number | null }[];
  et0Total: number;
  etcTotal: number | null;
  sources: Source[];
}

export interface RainWeek {
  gaugeId: number;
  days: { day: string; mm: number }[];
  total: number;
  sources: Source[];
}

export interface GDD {
  base: number;
  total: number;
  days: number;
  missing: number;
  stationId: number;
  sources: Source[];
}

export type StageId = 'initial' | 'development' | 'mid' | 'late' | 'outside';

export interface Stage {
  stage: StageId;
  from: string;
  to: string;
  days: number;
  kcFrom: number;
  kcTo: number;
}

export interface CropState {
  deviceId: number;
  crop: string;
  cropName: string;
  variety: string;
  sown: number;
  dayOfSeason: number;
  stage: StageId;
  kc: number | null;
  stageEnds?: string;
  gdd: GDD | null;
  stages: Stage[];
  irrigationMethod: string;
}

export interface Extreme {
  day: string;
  temp: number;
  at: number | null;
}

export interface ForecastRisk {
  provider: string;
  days: { day: string; tempMin: number | null; tempMax: number | null; rain: number | null; et0: number | null }[];
  frost: Extreme | null;
  heat: Extreme | null;
  sources: Source[];
}

export interface InsectTrend {
  deviceId: number;
  param: string;
  /** [0] the last 24 h, [3] 72–96 h ago. */
  windows: [number, number, number, number];
  base: number;
  doubled: boolean;
  sources: Source[];
}

export interface Alert {
  id: number;
  deviceId: number;
  rule: string;
  level: string;
  at: number;
}

export interface Gap {
  deviceId: number;
  from: number;
  /** null: still silent. */
  to: number | null;
}

/** What nothing could be said about. */
export type NoDataItem = 'water' | 'et' | 'rain' | 'crop' | 'gdd' | 'forecast' | 'insects' | 'alerts';

/** GET /apis/ai/reality/{id}: the state of a device or a field now. */
export interface Reality {
  at: number;
  day: string;
  devices: DeviceRef[];
  water: Water[];
  et: ETWeek | null;
  rain: RainWeek | null;
  crop: CropState | null;
  forecast: ForecastRisk | null;
  insects: InsectTrend[];
  alerts: Alert[];
  gaps: Gap[];
  noData: NoDataItem[];
}

export interface StagePlan extends Stage {
  name: string;
  advice: string;
  current: boolean;
}

/** GET /apis/ai/strategy: the season plan, its sentences in the caller's language. */
export interface Strategy {
  crop: CropState | null;
  stages: StagePlan[];
  irrigation: string[];
  risks: string[];
  missing: string[];
}

export const TASK_KINDS = ['irrigate', 'frost', 'heat', 'scout', 'waterlogging'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const FEEDBACKS = ['done', 'notDone', 'notUseful'] as const;
export type Feedback = (typeof FEEDBACKS)[number];
export type TaskStatus = 'open' | Feedback;

/** The numbers a task was derived from. */
export interface Facts {
  amount?: number;
  volumeM3?: number;
  temp?: number;
  day?: string;
  count?: number;
  base?: number;
  relative?: number;
  sources: Source[] | null;
}

/** A proposed task, its words in the caller's language. */
export interface Task {
  id: number;
  deviceId: number;
  deviceName: string;
  day: string;
  kind: TaskKind;
  title: string;
  /** The arithmetic behind it, one sentence a step. */
  steps: string[] | null;
  facts: Facts;
  dueAt: number | null;
  status: TaskStatus;
  note: string;
  createdAt: number;
  feedbackAt: number | null;
}

/** A device the page can advise on, as the device list answers it. */
export interface AdviceDevice {
  id: number;
  hashId: string;
  sn: string;
  name: string;
  typeName: string;
  category: string;
  page: string;
  slave: boolean;
  lng: number | null;
  lat: number | null;
}
