/** A device's telemetry as every detail page reads it: the parameter catalogue, the latest readings and the history. */
import type { TimeRange } from '@/lib/time-range';

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

/** What every history view of a detail page draws over. */
export interface HistoryContext {
  deviceId: number;
  catalogue: ParamCatalogue;
  range: TimeRange;
  dim: HistoryDim;
}
