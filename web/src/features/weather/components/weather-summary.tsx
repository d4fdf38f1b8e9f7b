import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { rainClassKey } from '@/lib/rain-grades';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { useLang } from '@/lib/use-lang';
import { useWeatherNow } from '../api/get-weather-now';

type Grade = 1 | 2 | 3 | 4 | 5 | 6;

/** China's AQI colours by grade: green, yellow, orange, red, purple, maroon. */
export const GRADE_COLORS: Record<Grade, string> = {
  1: '#00b050',
  2: '#e6b800',
  3: '#ff7e00',
  4: '#ff0000',
  5: '#99004c',
  6: '#7e0023',
};

const gradeOf = (grade: number): Grade => Math.max(1, Math.min(6, Math.round(grade))) as Grade;

/** Levels above 12 share the name of 12 (hurricane force). */
type NamedWindLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;
const namedLevel = (level: number) => Math.max(0, Math.min(level, 12)) as NamedWindLevel;

const SECTORS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
type Sector = (typeof SECTORS)[number];
const isSector = (value: string | undefined): value is Sector => (SECTORS as readonly string[]).includes(value ?? '');

/** The catalogue's pollutants the grade is made of (SPEC.md §9). */
const POLLUTANTS = ['pm25', 'pm10', 'tvoc'] as const;

/**
 * Wind force and direction, the rain class of the last day and the air-quality grade, as the
 * server grades the station's newest readings (GET /apis/qi/{id}/data/realtime).
 */
export function WeatherSummary({ deviceId, catalogue }: { deviceId: number; catalogue: ParamCatalogue }) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const has = (id: string) => catalogue.params.some((param) => param.id === id);
  const now = useWeatherNow(deviceId, lang);
  const data = now.data;
  const wind = data?.wind ?? null;
  const rain = data?.rain ?? null;
  const quality = data?.airQuality ?? null;
  const grade = quality ? gradeOf(quality.grade) : null;
  const nameOf = (param: string) =>
    data?.values.find((v) => v.param === param)?.name ?? catalogue.params.find((p) => p.id === param)?.name ?? param;
  const rainKey = rainClassKey(rain?.class24h);
  const primary = quality?.primary ?? [];

  return (
    <SummaryCard title={t('weather.title')} testId="poi-weather-summary">
      {now.error ? <ServerErrorAlert error={now.error} /> : null}
      <div className="fw-poi-figures">
        {has('windSpeed') && (
          <KeyFigure
            reserveDetail
            testId="poi-wind-level"
            label={t('weather.windLevel')}
            value={wind ? t('weather.level', { level: wind.level }) : MISSING}
            detail={wind ? `${t(`wind.levels.${namedLevel(wind.level)}`)} · ${formatWithUnit(wind.speed, 'm/s', 1)}` : undefined}
          />
        )}
        {has('windDirection') && (
          <KeyFigure
            reserveDetail
            testId="poi-wind-direction"
            label={t('weather.windDirection')}
            value={isSector(wind?.sector) ? t(`wind.sectors.${wind.sector}`) : MISSING}
            detail={wind?.direction == null ? undefined : `${formatValue(wind.direction, 0)}°`}
          />
        )}
        {has('rainfall') && (
          <KeyFigure
            reserveDetail
            testId="poi-rain-class"
            label={t('weather.rain24h')}
            value={rainKey ? t(`rain.classes.${rainKey}`) : MISSING}
            detail={rain ? formatWithUnit(rain.rain24h, 'mm', 1) : undefined}
          />
        )}
        {POLLUTANTS.some(has) && (
          <KeyFigure
            reserveDetail
            testId="poi-air-quality"
            label={
              <Tooltip title={t('weather.airQualityRule')}>
                <span className="fw-poi-help">{t('weather.airQuality')}</span>
              </Tooltip>
            }
            accent={grade ? GRADE_COLORS[grade] : undefined}
            value={
              grade ? (
                <span className="fw-poi-grade" style={{ background: GRADE_COLORS[grade], color: grade === 2 ? 'rgba(0,0,0,0.85)' : '#fff' }}>
                  {t(`airQuality.grades.${grade}`)}
                </span>
              ) : (
                MISSING
              )
            }
            detail={
              grade
                ? // Excellent air has no primary pollutant (HJ 633-2012).
                  grade > 1 && primary.length
                  ? t('weather.primaryPollutant', { names: primary.map(nameOf).join(t('listSeparator')) })
                  : t('weather.noPrimaryPollutant')
                : undefined
            }
          />
        )}
      </div>
    </SummaryCard>
  );
}
