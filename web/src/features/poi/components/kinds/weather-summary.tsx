import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/lib/format';
import { airQuality, type AirQualityGrade, type Pollutant } from '../../lib/air-quality';
import { rainClass } from '../../lib/rain';
import { latestValue, type ReadingIndex } from '../../lib/readings';
import { useNow } from '../../lib/use-now';
import { formatValue, formatWithUnit } from '../../lib/values';
import { windLevel, windSector } from '../../lib/wind';
import type { ParamCatalogue } from '../../types';
import { KeyFigure, SummaryCard } from './summary-card';
import { useRecentAmounts } from './use-recent-amounts';

/** China's AQI colours by grade: green, yellow, orange, red, purple, maroon. */
export const GRADE_COLORS: Record<AirQualityGrade, string> = {
  1: '#00b050',
  2: '#e6b800',
  3: '#ff7e00',
  4: '#ff0000',
  5: '#99004c',
  6: '#7e0023',
};

/** Levels above 12 share the name of 12 (hurricane force). */
type NamedWindLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;
const namedLevel = (level: number) => Math.min(level, 12) as NamedWindLevel;

interface WeatherSummaryProps {
  deviceId: number;
  catalogue: ParamCatalogue;
  readings: ReadingIndex;
}

/** Wind level and direction, the rain class of the last day and the air-quality grade. */
export function WeatherSummary({ deviceId, catalogue, readings }: WeatherSummaryProps) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const has = (id: string) => catalogue.params.some((param) => param.id === id);
  const measuresRain = has('rainfall');
  const { amounts } = useRecentAmounts(deviceId, 'rainfall', now, measuresRain);

  const speed = latestValue(readings, 'windSpeed');
  const level = windLevel(speed);
  const degrees = latestValue(readings, 'windDirection');
  const sector = windSector(degrees);

  const pollutants = (['pm25', 'pm10', 'tvoc'] as const).filter(has);
  const quality = pollutants.length
    ? airQuality(Object.fromEntries(pollutants.map((p) => [p, latestValue(readings, p)])) as Record<Pollutant, number | null>)
    : null;
  const pollutantName = (p: Pollutant) => catalogue.params.find((param) => param.id === p)?.name ?? p;

  const rain24 = amounts?.last24Hours ?? null;
  const rainKind = rainClass(rain24, '24h');

  return (
    <SummaryCard title={t('weather.title')} testId="poi-weather-summary">
      <div className="fw-poi-figures">
        {has('windSpeed') && (
          <KeyFigure
            testId="poi-wind-level"
            label={t('weather.windLevel')}
            value={level === null ? MISSING : t('weather.level', { level })}
            detail={
              level === null
                ? undefined
                : `${t(`wind.levels.${namedLevel(level)}`)} · ${formatWithUnit(speed, 'm/s', 1)}`
            }
          />
        )}
        {has('windDirection') && (
          <KeyFigure
            testId="poi-wind-direction"
            label={t('weather.windDirection')}
            value={sector ? t(`wind.sectors.${sector}`) : MISSING}
            detail={degrees === null ? undefined : `${formatValue(degrees, 0)}°`}
          />
        )}
        {measuresRain && (
          <KeyFigure
            testId="poi-rain-class"
            label={t('weather.rain24h')}
            value={rainKind ? t(`rain.classes.${rainKind}`) : MISSING}
            detail={rain24 === null ? undefined : formatWithUnit(rain24, 'mm', 1)}
          />
        )}
        {pollutants.length > 0 && (
          <KeyFigure
            testId="poi-air-quality"
            label={
              <Tooltip title={t('weather.airQualityRule')}>
                <span className="fw-poi-help">{t('weather.airQuality')}</span>
              </Tooltip>
            }
            accent={quality ? GRADE_COLORS[quality.grade] : undefined}
            value={
              quality ? (
                <span
                  className="fw-poi-grade"
                  style={{ background: GRADE_COLORS[quality.grade], color: quality.grade === 2 ? 'rgba(0,0,0,0.85)' : '#fff' }}
                >
                  {t(`airQuality.grades.${quality.grade}`)}
                </span>
              ) : (
                MISSING
              )
            }
            detail={
              quality
                ? quality.primary.length
                  ? t('weather.primaryPollutant', { names: quality.primary.map(pollutantName).join(t('listSeparator')) })
                  : t('weather.noPrimaryPollutant')
                : undefined
            }
          />
        )}
      </div>
    </SummaryCard>
  );
}
