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

export interface EarlyWarning {
  time: Num;
  current: Warning;
  rain1h: Num;
  rain3h: Num;
  rain6h: Num;
  rain12h: Num;
  rain24h: Num;
  episodes: WarningEpisode[];
  highest: Warning | null;
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

function useAnalysis<T>(deviceId: number, path: string, what: string, range: Range, fix: (data: T) => T) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, what, range.begin ?? null, range.end ?? null),
    queryFn: async ({ signal }) => fix(await api.get<T>(path, { params: { ...id(deviceId), ...rangeParams(range) }, signal })),
    placeholderData: keepPreviousData,
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

export function useEarlyWarning(deviceId: number, days = 7) {
  return useQuery({
    queryKey: poiKeys.plain(deviceId, 'early-warning', days),
    queryFn: async ({ signal }) => {
      const data = await api.get<EarlyWarning>(`/poi/${deviceId}/pluviometer/early-warning`, { params: { days }, signal });
      return { ...data, episodes: list(data.episodes) };
    },
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
