/** The soil analyses of docs/analyses.md, as /apis/poi/shang/* and /apis/poi/analysis/* answer them. Times are unix milliseconds. */

/** A number the server could not compute is null. */
type Num = number | null;

export interface SoilNodeSetting {
  depth: number;
  thickness?: number;
  fieldCapacity: Num;
  unitWeight: Num;
  saturation?: Num;
}

export interface Option {
  id: string;
  name: string;
}

export interface SoilSettings {
  configured: boolean;
  nodes: SoilNodeSetting[];
  cropType: string;
  cropName?: string;
  cropVariety: string;
  irrigationMethod: string;
  plantingTime: Num;
  areaMu: Num;
  enableTime: Num;
  upload: boolean;
  updatedAt?: Num;
  cropTypes: Option[];
  irrigationMethods: Option[];
  canEdit: boolean;
}

export interface SoilSettingsInput {
  nodes: { depth: number; fieldCapacity: number; unitWeight: number }[];
  cropType: string;
  cropVariety: string;
  irrigationMethod: string;
  plantingTime: Num;
  areaMu: Num;
  enableTime: Num;
  upload: boolean;
}

export interface PulseLayer {
  depth: number;
  arrival: Num;
  lagHours: Num;
  peakTime: Num;
  before: Num;
  peak: Num;
  rise: Num;
  waterMm: Num;
}

export interface Pulse {
  start: number;
  date: string;
  source: 'rain' | 'irrigation' | 'unknown';
  amountMm: Num;
  rainMm: Num;
  volumeM3: Num;
  frontDepth: Num;
  frontSpeed: Num;
  layers: PulseLayer[];
}

export interface Station {
  id: number;
  name: string;
  sn: string;
  own: boolean;
  distanceKm: Num;
}

export interface IrrigationRecognition {
  begin: number;
  end: number;
  rainStation: Station | null;
  pulses: Pulse[];
  irrigationMm: Num;
  rainMm: Num;
  irrigationCount: number;
  minAmountMm: number;
}

export interface WaterloggingPeriod {
  start: number;
  end: number;
  hours: Num;
  peak: Num;
  ongoing: boolean;
}

export interface Waterlogging {
  begin: number;
  end: number;
  thresholdSource: '' | 'query' | 'settings';
  minHours: number;
  layers: { depth: number; threshold: Num; hours: Num; periods: WaterloggingPeriod[] }[];
  hours: Num;
}

export interface FreezeThaw {
  begin: number;
  end: number;
  layers: { depth: number; events: { kind: string; time: number }[]; cycles: number; frozenHours: Num; dates: string[] }[];
  dates: string[];
  /** The docs say a boolean; the server sends the depths frozen now. Both are read. */
  frozenNow: boolean | number[];
}

export interface EtDay {
  time: number;
  date: string;
  et0: Num;
  kc: Num;
  stage?: string;
  etc: Num;
}

export interface Forecast {
  provider: string;
  fetchedAt: number;
  days: (EtDay & { tempMax: Num; tempMin: Num; rain: Num })[];
  rainTotal: Num;
  et0Total: Num;
  etcTotal: Num;
}

export interface EtAnalysis {
  begin: number;
  end: number;
  station: Station | null;
  crop: { type: string; name: string } | null;
  days: EtDay[];
  et0Total: Num;
  etcTotal: Num;
  observedUnavailable: '' | 'noStation' | 'noLocation';
  forecast: Forecast | null;
  forecastUnavailable: boolean;
}

export interface LayerChange {
  depth: number;
  before: number;
  after: number;
  /** vol % points. */
  change: number;
  waterMm: number;
}

/** GET /apis/poi/shang/infiltration. */
export interface Infiltration {
  from: number;
  to: number;
  layers: LayerChange[];
  totalMm: number;
  /** The event the times were taken from; null when the server fell back to the last 24 hours. */
  pulse: Pulse | null;
}

export interface RootLayer {
  depth: number;
  days: number;
  drawdownDays: number;
  meanDayDrop: number;
  meanNightDrop: number;
  active: boolean;
}

/** GET /apis/poi/shang/rootdepth. */
export interface RootDepth {
  begin: number;
  end: number;
  /** cm; 0 when no layer shows roots at work. */
  rootDepth: number;
  layers: RootLayer[];
}

/** GET /apis/poi/analysis/et_root. */
export interface EtRoot {
  configured: boolean;
  rootDepth: RootDepth | null;
  zone: {
    depth: number;
    rootDepthFound: boolean;
    fieldCapacity: number;
    moisture: number;
    relative: number;
    drought: string;
    refillRelative: number;
    deficitMm: number;
    rawMm: number;
  } | null;
  et: { et0: number; kc: Num; stage?: string; etc: Num; source: 'forecast' | 'observed' } | null;
  projection: { time: number; date: string; daysUntil: number; irrigationMm: number; volumeM3: Num } | null;
}
