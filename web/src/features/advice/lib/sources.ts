import type { TFunction } from 'i18next';
import { farmTime } from '@/lib/farm-time';
import { formatValue } from '@/lib/format';
import type { Source } from '../types';

/** Units of the parameters the advice reads. */
const UNITS: Record<string, string> = {
  soilMoisture: '%',
  rainfall: 'mm',
  airTemp: '°C',
  airHumidity: '%',
  windSpeed: 'm/s',
  solarRadiation: 'W/m²',
};

/** Parameters with a name of their own in the texts; others show their id. */
const NAMED = ['soilMoisture', 'rainfall', 'airTemp', 'airHumidity', 'windSpeed', 'solarRadiation', 'insectCount', 'forecast'] as const;

export function paramName(t: TFunction<'advice'>, param: string): string {
  const id = param.startsWith('forecast:') ? 'forecast' : param;
  return (NAMED as readonly string[]).includes(id) ? t(`param.${id as (typeof NAMED)[number]}`) : param;
}

function withUnit(value: number | undefined, param: string): string {
  const unit = UNITS[param];
  return `${formatValue(value ?? null, 2)}${unit ? ` ${unit}` : ''}`;
}

const clock = (ms: number) => farmTime(ms).format('MM-DD HH:mm');
const date = (ms: number) => farmTime(ms).format('MM-DD');

/**
 * One source in a line: whose readings, of what, and what was taken of them — e.g.
 * "ZS006-02 · soil moisture 20 cm · last reading 35.2 % at 11-27 14:00".
 */
export function describeSource(t: TFunction<'advice'>, source: Source, deviceName: (id: number) => string): string {
  const what = [
    source.deviceId ? deviceName(source.deviceId) : t('source.provider'),
    `${paramName(t, source.param)}${source.node ? ` ${t('source.depth', { depth: source.node })}` : ''}`,
  ].join(' · ');
  const span = { from: date(source.from), to: date(source.to), count: source.count };
  let taken: string;
  switch (source.agg) {
    case 'last':
      taken = t('source.last', { value: withUnit(source.value, source.param), time: clock(source.to) });
      break;
    case 'sum':
      taken = t('source.sum', { value: withUnit(source.value, source.param), from: clock(source.from), to: clock(source.to), count: source.count });
      break;
    case 'daily':
      taken = t('source.daily', span);
      break;
    case 'daily min/max':
      taken = t('source.dailyMinMax', span);
      break;
    case 'sum per 24 h':
      taken = t('source.per24h', span);
      break;
    case 'forecast':
      taken = t('source.forecast', span);
      break;
    default:
      taken = t('source.values', span);
  }
  return `${what} · ${taken}`;
}
