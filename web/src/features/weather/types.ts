/** The weather station's graded readings, alerts and fire weather index (docs/analyses.md), as /apis/qi/* answer them. */
import type { ServerRainClass, Warning } from '@/lib/rain-grades';

/** A number the server could not compute is null. */
type Num = number | null;

export type AlertSource = 'station' | 'forecast' | 'feed';

export interface WeatherAlert {
  type: string;
  level: number;
  code: string;
  color: Warning['color'];
  value: Num;
  unit: string;
  basis: string;
  /** Who called for it: the station's readings, the forecast or the upstream warning feed. */
  source?: AlertSource;
  /** The forecast day of a forecast-based signal. */
  day?: Num;
  /** Of a feed's alert. */
  headline?: string;
  area?: string;
  sender?: string;
  expires?: Num;
}

export interface WeatherAlerts {
  time: Num;
  alerts: WeatherAlert[];
  /** The types the station's own sensors checked. */
  checked: string[];
  /** All 16 types with the sources that checked each. */
  checks?: { type: string; by: AlertSource[] }[];
  /** Whether the forecast was read. */
  forecast?: boolean;
  /** none: no feed configured; ok: read; unavailable: configured but not readable now. */
  feed?: 'none' | 'ok' | 'unavailable';
  /** The types neither the station nor the forecast decided. */
  needFeed?: string[];
}

export interface FwiDay {
  time: number;
  date: string;
  missing: boolean;
  ffmc: Num;
  dmc: Num;
  dc: Num;
  isi: Num;
  bui: Num;
  fwi: Num;
  level: Num;
}

export interface FwiStatistics {
  begin: number;
  end: number;
  days: number;
  missing: number;
  levels: { level: number; name: string; days: number }[];
  latest: FwiDay | null;
  max: FwiDay | null;
  mean: Num;
}

/** GET /apis/qi/{id}/data/realtime: the station's newest readings graded on the server (SPEC §9). */
export interface WeatherNow {
  time: Num;
  values: { param: string; name: string; unit: string; precision: number; value: number; time: number }[];
  wind: {
    speed: number;
    level: number;
    levelMin: number;
    levelMax: Num;
    direction: Num;
    /** N, NE, … NW; absent without a direction. */
    sector?: string;
  } | null;
  rain: {
    rain1h: number;
    rain24h: number;
    today: number;
    class1h: ServerRainClass;
    class24h: ServerRainClass;
    warning: Warning;
  } | null;
  airQuality: {
    grade: number;
    name: string;
    pm25: number;
    pm10: number;
    tvoc?: number;
    /** The pollutants whose grade is the overall one: pm25, pm10, tvoc. */
    primary: string[] | null;
  } | null;
}

/** GET /apis/qi/fwi/history. */
export interface FwiHistory {
  begin: number;
  end: number;
  days: FwiDay[];
}
