/** Answers for the device APIs, for component tests: a weather station with air quality. */
import { vi } from 'vitest';
import type { DeviceInfo } from '@/features/poi/types';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { jsonResponse } from './render';

export const NOW = Date.now();

export function device(overrides: Partial<DeviceInfo> = {}): DeviceInfo {
  return {
    id: 13,
    hashId: 'abc123',
    sn: 'DM07000013',
    name: 'East field station',
    typeId: 7,
    typeName: 'Weather and air quality station',
    model: 'TQA012',
    category: 'meteorology',
    page: 'tianqi',
    slave: false,
    status: 'online',
    statusName: 'Online',
    group: 'working',
    battery: 12.7,
    lowBattery: false,
    signal: -85,
    chargeVoltage: 0,
    lastReportTime: NOW - 5 * 60_000,
    location: 'East field',
    lng: 116.2,
    lat: 37.45,
    altitude: null,
    installTime: NOW - 86_400_000,
    right: { owner: true, rename: true, settings: true, export: true },
    config: { reportInterval: null },
    ...overrides,
  };
}

export const weatherCatalogue: ParamCatalogue = {
  typeId: 7,
  page: 'tianqi',
  nodes: [],
  params: [
    { id: 'airTemp', name: 'Air temperature', unit: '°C', precision: 1, perNode: false, daily: ['avg', 'min', 'max'], min: -50, max: 70 },
    { id: 'windSpeed', name: 'Wind speed', unit: 'm/s', precision: 1, perNode: false, daily: ['avg', 'max'], min: 0, max: 75 },
    { id: 'windDirection', name: 'Wind direction', unit: '°', precision: 0, perNode: false, daily: ['last'], min: 0, max: 360 },
    { id: 'rainfall', name: 'Rainfall', unit: 'mm', precision: 1, perNode: false, daily: ['sum'], min: 0, max: 300 },
    { id: 'pm25', name: 'PM2.5', unit: 'µg/m³', precision: 0, perNode: false, daily: ['avg', 'max'], min: 0, max: 1000 },
    { id: 'pm10', name: 'PM10', unit: 'µg/m³', precision: 0, perNode: false, daily: ['avg', 'max'], min: 0, max: 2000 },
    { id: 'battery', name: 'Battery voltage', unit: 'V', precision: 2, perNode: false, daily: ['min', 'last'], min: 0, max: 20 },
  ],
};

const latest: [string, number][] = [
  ['airTemp', 18.37],
  ['windSpeed', 5.5],
  ['windDirection', 270],
  ['rainfall', 0.4],
  ['pm25', 80],
  ['pm10', 40],
  ['battery', 12.7],
];

/** GET /apis/qi/13/data/realtime for the readings above, graded as the server grades them. */
export const weatherNow = {
  time: NOW - 5 * 60_000,
  values: latest.map(([param, value]) => ({ param, name: weatherCatalogue.params.find((p) => p.id === param)?.name ?? param, unit: '', precision: 1, value, time: NOW - 5 * 60_000 })),
  wind: { speed: 5.5, level: 4, levelMin: 5.5, levelMax: 8, direction: 270, sector: 'W' },
  rain: { rain1h: 0.4, rain24h: 4.6, today: 1.2, class1h: 'light', class24h: 'light', warning: { level: 0, code: '', color: 'none' } },
  airQuality: { grade: 3, name: 'light', pm25: 3, pm10: 1, primary: ['pm25'] },
};

export interface ServeOptions {
  info?: DeviceInfo | null;
  indicator?: Record<string, unknown>;
  /** Extra answers by path, checked before the defaults; return undefined to fall through. */
  extra?: (path: string, init?: RequestInit) => unknown;
}

/** Stubs fetch with the device APIs; returns the mock so tests can read the calls. */
export function serveDevice({ info = device(), indicator, extra }: ServeOptions = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname;
    const ok = (data: unknown) => jsonResponse({ code: 0, message: '', data });
    const custom = extra?.(path + url.search, init);
    if (custom !== undefined) return custom instanceof Response ? custom : ok(custom);
    if (path === '/apis/poi/info') {
      return info ? ok(info) : jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    }
    if (path.endsWith('/datapoints/v2/metadata')) return ok(weatherCatalogue);
    if (path.endsWith('/detect')) {
      return ok({
        lastReportTime: NOW - 5 * 60_000,
        list: latest.map(([param, value]) => ({ param, name: param, unit: '', precision: 1, node: 0, time: NOW - 5 * 60_000, value })),
      });
    }
    if (path.endsWith('/indicator')) {
      return ok({ battery: 12.7, lowBattery: false, advice: '', signal: -85, chargeVoltage: 0, lastReportTime: NOW - 5 * 60_000, status: 'online', faults: [], ...indicator });
    }
    if (path.endsWith('/intro')) {
      return ok({ id: 13, sn: 'DM07000013', typeId: 7, typeName: 'Weather', model: 'TQA012', category: 'meteorology', page: 'tianqi', interval: 10, solar: true, camera: false, nodes: [], slave: false });
    }
    if (path.endsWith('/sales')) {
      return ok({ installTime: NOW - 86_400_000, serviceUntil: NOW + 86_400_000, warrantyUntil: NOW - 1000, serviceExpired: false, warrantyExpired: true, registrationTime: NOW - 86_400_000 });
    }
    if (path.endsWith('/config')) return ok({ reportInterval: null });
    if (path === '/apis/qi/13/data/realtime') return ok(weatherNow);
    if (path.endsWith('/datapoints/v3')) {
      const params = (url.searchParams.get('params') ?? '').split(',');
      return ok({
        begin: Number(url.searchParams.get('begin')),
        end: Number(url.searchParams.get('end')),
        dim: url.searchParams.get('dim') ?? 'raw',
        aggregated: 'none',
        points: 1000,
        series: params.map((param) => ({ param, node: 0, name: param, unit: '', precision: 1, total: 2, t: [NOW - 3_600_000, NOW - 600_000], v: [1.2, 3.4], sampled: false })),
      });
    }
    return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
