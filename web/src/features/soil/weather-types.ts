/** Answers of the soil device's weather, moisture-query and crop calls (docs/analyses.md). */
import type { NearStation, WeatherDay } from '@/components/weather-days';

type Num = number | null;

export interface SevenMete {
  station: NearStation | null;
  days: WeatherDay[];
}

export interface ForecastDay {
  time: number;
  date: string;
  tempMax: Num;
  tempMin: Num;
  rain: Num;
  rainClass: string | null;
  et0: Num;
  kc: Num;
  etc: Num;
  windMax: Num;
  windLevel: Num;
}

export interface WeekWeather {
  station: NearStation | null;
  observed: WeatherDay[];
  forecast: { provider: string; days: ForecastDay[] } | null;
  forecastUnavailable: boolean;
}

export interface MoistureQuery {
  begin: number;
  end: number;
  dim: 'daily' | 'raw';
  nodes: { depth: number; fieldCapacity: Num; points: { time: number; moisture: number; min?: number; max?: number; relative: Num }[] }[];
}

export interface CropInput {
  cropName: string;
  cropVariety?: string;
  sowTime: number | null;
  area: number | null;
}
