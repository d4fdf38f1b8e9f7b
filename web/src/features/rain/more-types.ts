/** Answers of the rain gauge's latest-event and installation calls (docs/analyses.md). */
type Num = number | null;

export interface LatestIdEvent {
  begin: number;
  end: number;
  threshold: { alpha: number; beta: number };
  event: {
    start: number;
    end: number;
    hours: number;
    mm: number;
    intensity: number;
    thresholdIntensity: number;
    ratio: number;
    exceeded: boolean;
    ongoing: boolean;
  } | null;
}

export interface Installation {
  sn: string;
  name: string;
  model: string;
  location: string;
  lng: Num;
  lat: Num;
  altitude: Num;
  installTime: Num;
  daysInstalled: Num;
  intervalMinutes: number;
  lastReport: Num;
  criteria: { level: number; code: string; color: 'blue' | 'yellow' | 'orange' | 'red'; hours: number; mm: number }[];
  threshold: { alpha: number; beta: number };
}

