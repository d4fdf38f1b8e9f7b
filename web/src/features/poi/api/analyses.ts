import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from './keys';

/** The soil and rain analyses of docs/analyses.md; numbers may be null where nothing could be computed. */
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

export interface Range {
  begin?: number;
  end?: number;
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

export interface Warning {
  level: number;
  code: string;
  color: 'none' | 'blue' | 'yellow' | 'orange' | 'red';
}

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

/** Rain classes as the server names them (GB/T 28592-2012, CMA hourly grades); '' when not graded. */
export type ServerRainClass = '' | 'none' | 'light' | 'moderate' | 'heavy' | 'storm' | 'heavy storm' | 'severe storm';

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

const id = (deviceId: number) => ({ id: deviceId });

function normalizeSettings(d: SoilSettings): SoilSettings {
  return { ...d, nodes: d.nodes ?? [], cropTypes: d.cropTypes ?? [], irrigationMethods: d.irrigationMethods ?? [] };
}

export function useSoilSettings(deviceId: number, lang: Language) {
  return useQuery({
    queryKey: poiKeys.localized(deviceId, 'shang-config', lang),
    queryFn: async ({ signal }) => normalizeSettings(await api.get<SoilSettings>('/poi/shang/config', { params: id(deviceId), signal })),
  });
}

export function useSaveSoilSettings(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SoilSettingsInput) => normalizeSettings(await api.put<SoilSettings>('/poi/shang/config', input, { params: id(deviceId) })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: poiKeys.device(deviceId) }),
  });
}

function rangeParams(range: Range) {
  const params: Record<string, number> = {};
  if (range.begin !== undefined) params.begin = range.begin;
  if (range.end !== undefined) params.end = range.end;
  return params;
}

/** Go leaves empty lists out or null; the views read them as []. */
const list = <T>(value: T[] | null | undefined): T[] => value ?? [];

const normalize = {
  irri: (d: IrrigationRecognition): IrrigationRecognition => ({ ...d, pulses: list(d.pulses).map((p) => ({ ...p, layers: list(p.layers) })) }),
  waterlogging: (d: Waterlogging): Waterlogging => ({ ...d, layers: list(d.layers).map((l) => ({ ...l, periods: list(l.periods) })) }),
  freeze: (d: FreezeThaw): FreezeThaw => ({
    ...d,
    dates: list(d.dates),
    layers: list(d.layers).map((l) => ({ ...l, events: list(l.events), dates: list(l.dates) })),
  }),
  et: (d: EtAnalysis): EtAnalysis => ({ ...d, days: list(d.days), forecast: d.forecast ? { ...d.forecast, days: list(d.forecast.days) } : null }),
};

function useAnalysis<T>(deviceId: number, path: string, what: string, range: Range, fix: (data: T) => T, enabled = true) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, what, range.begin ?? null, range.end ?? null),
    queryFn: async ({ signal }) => fix(await api.get<T>(path, { params: { ...id(deviceId), ...rangeParams(range) }, signal })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const useIrrigationRecognition = (deviceId: number, range: Range) =>
  useAnalysis<IrrigationRecognition>(deviceId, '/poi/shang/irriRecognition', 'irri', range, normalize.irri);
export const useWaterlogging = (deviceId: number, range: Range) =>
  useAnalysis<Waterlogging>(deviceId, '/poi/shang/waterlogging', 'waterlogging', range, normalize.waterlogging);
export const useFreezeThaw = (deviceId: number, range: Range) =>
  useAnalysis<FreezeThaw>(deviceId, '/poi/shang/freezeThaw', 'freeze-thaw', range, normalize.freeze);
export const useEtAnalysis = (deviceId: number, range: Range) =>
  useAnalysis<EtAnalysis>(deviceId, '/poi/shang/etc_et0_kc', 'et', range, normalize.et);

/** The rain figures follow the readings, which arrive every few minutes. */
const RAIN_REFRESH = 60_000;

export function useEarlyWarning(deviceId: number, days = 7, enabled = true) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'early-warning', days),
    queryFn: async ({ signal }) => {
      const data = await api.get<EarlyWarning>(`/poi/${deviceId}/pluviometer/early-warning`, { params: { days }, signal });
      return { ...data, criteria: list(data.criteria), episodes: list(data.episodes) };
    },
    refetchInterval: RAIN_REFRESH,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRainLatest(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'rain-latest'),
    queryFn: ({ signal }) => api.get<RainLatest>(`/poi/${deviceId}/pluviometer/latest`, { signal }),
    refetchInterval: RAIN_REFRESH,
  });
}

export function useRainStats(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'rain-stats'),
    queryFn: ({ signal }) => api.get<RainStats>(`/poi/${deviceId}/pluviometer/stats`, { signal }),
    refetchInterval: RAIN_REFRESH,
  });
}

export function useRainRealtime(deviceId: number, hours = 24) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'rain-realtime', hours),
    queryFn: async ({ signal }) => {
      const data = await api.get<RainRealtime>(`/poi/${deviceId}/pluviometer/realtime`, { params: { hours }, signal });
      return { ...data, points: list(data.points), cumulative: list(data.cumulative), hourly: list(data.hourly) };
    },
    refetchInterval: RAIN_REFRESH,
  });
}

export function useRainSeries(deviceId: number, dim: RainDim, range: Range) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'rain-series', dim, range.begin ?? null, range.end ?? null),
    queryFn: async ({ signal }) => {
      const data = await api.get<RainSeries>(`/poi/${deviceId}/pluviometer/stats_data`, { params: { dim, ...rangeParams(range) }, signal });
      return { ...data, list: list(data.list) };
    },
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useIdRange(deviceId: number, range: Range) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'i-d-range', range.begin ?? null, range.end ?? null),
    queryFn: async ({ signal }) => {
      const data = await api.get<IdRange>(`/poi/${deviceId}/pluviometer/i-d/range`, { params: rangeParams(range), signal });
      return { ...data, curve: list(data.curve), events: list(data.events) };
    },
    placeholderData: keepPreviousData,
  });
}

export interface WeatherAlert {
  type: string;
  level: number;
  code: string;
  color: Warning['color'];
  value: Num;
  unit: string;
  basis: string;
}

export interface WeatherAlerts {
  time: Num;
  alerts: WeatherAlert[];
  checked: string[];
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

export function useWeatherAlerts(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'weather-alert'),
    queryFn: async ({ signal }) => {
      const data = await api.get<WeatherAlerts>('/qi/weather/alert', { params: id(deviceId), signal });
      return { ...data, alerts: list(data.alerts), checked: list(data.checked) };
    },
  });
}

export function useFwiStatistics(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'fwi-statistics'),
    queryFn: async ({ signal }) => {
      const data = await api.get<FwiStatistics>('/qi/fwi/statistics', { params: id(deviceId), signal });
      return { ...data, levels: list(data.levels) };
    },
  });
}

export function useFwiHistory(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'fwi-history'),
    queryFn: async ({ signal }) => {
      const data = await api.get<{ begin: number; end: number; days: FwiDay[] }>('/qi/fwi/history', { params: id(deviceId), signal });
      return { ...data, days: list(data.days) };
    },
  });
}

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

export function useTiltTrend(deviceId: number, lang: Language) {
  return useQuery({
    queryKey: poiKeys.localized(deviceId, 'shan-trend', lang),
    queryFn: async ({ signal }) => {
      const data = await api.get<TiltTrend>('/poi/shan/trend', { params: id(deviceId), signal });
      return { ...data, series: list(data.series) };
    },
  });
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

export function useWeatherNow(deviceId: number, lang: Language, enabled = true) {
  return useQuery({
    queryKey: poiKeys.localized(deviceId, 'qi-realtime', lang),
    queryFn: async ({ signal }) => {
      const data = await api.get<WeatherNow>(`/qi/${deviceId}/data/realtime`, { signal });
      return { ...data, values: list(data.values), airQuality: data.airQuality ? { ...data.airQuality, primary: list(data.airQuality.primary) } : null };
    },
    refetchInterval: 60_000,
    enabled,
  });
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

const normalizeRoot = (d: RootDepth): RootDepth => ({ ...d, layers: list(d.layers) });

export const useInfiltration = (deviceId: number, range: Range, enabled = true) =>
  useAnalysis<Infiltration>(
    deviceId,
    '/poi/shang/infiltration',
    'infiltration',
    range,
    (d) => ({ ...d, layers: list(d.layers), pulse: d.pulse ? { ...d.pulse, layers: list(d.pulse.layers) } : null }),
    enabled,
  );

export function useEtRoot(deviceId: number) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'et-root'),
    queryFn: async ({ signal }) => {
      const data = await api.get<EtRoot>('/poi/analysis/et_root', { params: id(deviceId), signal });
      return { ...data, rootDepth: data.rootDepth ? normalizeRoot(data.rootDepth) : null };
    },
  });
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

export const useTiltYaw = (deviceId: number, range: Range) =>
  useAnalysis<TiltYaw>(deviceId, '/poi/tilt/yaw', 'tilt-yaw', range, (d) => ({ ...d, points: list(d.points) }));
