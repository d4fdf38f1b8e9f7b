/** The tilt sensor's trend and lean (docs/analyses.md), as /apis/poi/shan/trend and /apis/poi/tilt/yaw answer them. */

/** A number the server could not compute is null. */
type Num = number | null;

export interface TiltTrend {
  begin: number;
  end: number;
  series: {
    param: string;
    name: string;
    unit: string;
    points: [number, number | null][];
    trend: { ratePerDay: Num; intercept: Num; r2: Num; cumulative: Num; threshold: Num; steps: { time: number; change: number }[] } | null;
  }[];
}

export interface YawPoint {
  time: number;
  x: number;
  y: number;
  /** Degrees counter-clockwise from the sensor's X axis. */
  direction: number;
  /** Degrees from vertical. */
  tilt: number;
}

/** GET /apis/poi/tilt/yaw. */
export interface TiltYaw {
  begin: number;
  end: number;
  latest: YawPoint | null;
  points: YawPoint[];
}
