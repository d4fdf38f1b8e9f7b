/** The rain gauge's figures and analyses of docs/analyses.md, as /apis/poi/{id}/pluviometer/* answer them. Times are unix milliseconds. */
import type { ServerRainClass, Warning } from '@/lib/rain-grades';

/** A number the server could not compute is null. */
type Num = number | null;

export interface WarningEpisode extends Warning {
  start: number;
  end: number;
  peak3h: Num;
  peak6h: Num;
  peak12h: Num;
  ongoing: boolean;
}

/** One rainstorm signal's rule, as the server applies it: at least `mm` within `hours`. */
export interface WarningCriterion extends Warning {
  hours: number;
  mm: number;
}

export interface EarlyWarning {
  time: Num;
  current: Warning;
  rain1h: Num;
  rain3h: Num;
  rain6h: Num;
  rain12h: Num;
  rain24h: Num;
  criteria: WarningCriterion[];
  episodes: WarningEpisode[];
  highest: Warning | null;
}

/** GET /apis/poi/{id}/pluviometer/latest. */
export interface RainLatest {
  time: Num;
  rainfall: Num;
  rain1h: number;
  rain24h: number;
  today: number;
  class1h: ServerRainClass;
  class24h: ServerRainClass;
  lastRain: Num;
  warning: Warning;
}

/** GET /apis/poi/{id}/pluviometer/stats. */
export interface RainStats {
  time: number;
  rain1h: number;
  rain24h: number;
  today: number;
  yesterday: number;
  week: number;
  month: number;
  year: number;
  rainDays: number;
  maxDay: { time: number; date: string; mm: Num; class?: ServerRainClass } | null;
}

/** One hour, day or month of rain; mm is null when nothing was reported in it. */
export interface RainBucket {
  time: number;
  label: string;
  mm: Num;
  class?: ServerRainClass;
}

export type RainDim = 'hour' | 'day' | 'month';

/** GET /apis/poi/{id}/pluviometer/stats_data. */
export interface RainSeries {
  begin: number;
  end: number;
  dim: RainDim;
  list: RainBucket[];
  total: number;
}

/** GET /apis/poi/{id}/pluviometer/realtime. */
export interface RainRealtime {
  begin: number;
  end: number;
  points: [number, number][];
  cumulative: [number, number][];
  hourly: RainBucket[];
  total: number;
}

export interface RainEvent {
  start: number;
  end: number;
  hours: number;
  mm: number;
  intensity: number;
  thresholdIntensity: number;
  ratio: number;
  exceeded: boolean;
  ongoing: boolean;
}

export interface IdRange {
  begin: number;
  end: number;
  threshold: { alpha: number; beta: number };
  curve: { hours: number; intensity: number }[];
  events: RainEvent[];
}
