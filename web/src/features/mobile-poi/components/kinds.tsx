import { Image, ImageViewer, Tag } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageSrc, useImages } from '@/features/poi/api/get-images';
import { useTopology } from '@/features/poi/api/get-topology';
import { useRecentAmounts } from '@/features/poi/components/kinds/use-recent-amounts';
import { useEarlyWarning } from '@/features/rain/api/get-early-warning';
import { useRainLatest } from '@/features/rain/api/get-rain-latest';
import { useRainStats } from '@/features/rain/api/get-rain-stats';
import { WarningBadge } from '@/features/rain/components/rain-summary';
import { useRules } from '@/features/rules/api/get-rules';
import { useTiltTrend } from '@/features/tilt/api/get-tilt-trend';
import { useWeatherNow } from '@/features/weather/api/get-weather-now';
import { useWeChat } from '@/features/wechat/hooks';
import { GRADE_COLORS } from '@/features/weather/components/weather-summary';
import { formatDateTime, formatReportTime, formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { rainClassKey } from '@/lib/rain-grades';
import { latestValue, type ReadingIndex } from '@/lib/telemetry/readings';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { useLang } from '@/lib/use-lang';
import { useNow } from '@/lib/use-now';
import type { DeviceInfo } from '@/features/poi/types';
import { depthRows, moistureScale, surfaceFigures } from '../lib/figures';
import { alarmState, thresholdsFor, thresholdText, type Threshold } from '../lib/thresholds';
import { BigFigure, DepthList, FigureTiles, Section, Tile, Tiles } from './parts';

export interface KindProps {
  device: DeviceInfo;
  catalogue: ParamCatalogue;
  readings: ReadingIndex;
}

const has = (catalogue: ParamCatalogue, id: string) => catalogue.params.some((p) => p.id === id);
const paramOf = (catalogue: ParamCatalogue, id: string) => catalogue.params.find((p) => p.id === id);
const amount = (value: number | null | undefined, digits: number) => (value === null || value === undefined ? MISSING : formatValue(value, digits));

/** Soil moisture by depth as bars, with the temperature (and conductivity) of each depth. */
export function SoilDepths({ catalogue, readings }: Omit<KindProps, 'device'>) {
  const { t } = useTranslation('mobilePoi');
  const moisture = paramOf(catalogue, 'soilMoisture');
  const temp = paramOf(catalogue, 'soilTemp');
  const ec = paramOf(catalogue, 'ec');
  if (!moisture) return null;
  const plain = depthRows(readings, moisture, catalogue.nodes);
  const rows = depthRows(readings, moisture, catalogue.nodes, moistureScale(plain.map((r) => r.value)));
  const time = rows.find((r) => r.time)?.time ?? null;
  return (
    <>
      <Section title={moisture.name} extra={time ? formatReportTime(time) : undefined} testId="mpoi-soil">
        <DepthList
          rows={rows}
          unit={moisture.unit}
          color="#3961ff"
          second={temp ? { rows: depthRows(readings, temp, catalogue.nodes), unit: temp.unit, label: temp.name } : undefined}
        />
        {temp && <p className="fw-mpoi-hint">{t('soil.columns', { moisture: moisture.name, temp: temp.name })}</p>}
      </Section>
      {ec && (
        <Section title={ec.name} testId="mpoi-ec">
          <DepthList rows={depthRows(readings, ec, catalogue.nodes)} unit={ec.unit} color="#13a8a8" />
        </Section>
      )}
    </>
  );
}

/** Weather as tiles: temperature, humidity and the rest, wind force and sector, rain graded, air quality. */
/** The readings the air-quality grade is made of (SPEC §9). */
const POLLUTANT_PARAMS = ['pm25', 'pm10', 'tvoc'] as const;

export function WeatherTiles({ device, catalogue, readings }: KindProps) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const lang = useLang();
  const now = useWeatherNow(device.id, lang);
  const wind = now.data?.wind ?? null;
  const rain = now.data?.rain ?? null;
  const quality = now.data?.airQuality ?? null;
  const rainKey = rainClassKey(rain?.class24h);
  const covered = ['windSpeed', 'windDirection', 'rainfall', 'battery', 'signal'];
  const figures = surfaceFigures(readings, catalogue.params).filter((f) => !covered.includes(f.id));
  const temp = figures.find((f) => f.id === 'airTemp');
  const rest = figures.filter((f) => f.id !== 'airTemp');
  const grade = quality ? Math.max(1, Math.min(6, Math.round(quality.grade))) : null;
  const time = readings.get('airTemp')?.get(0)?.time ?? now.data?.time ?? null;
  return (
    <Section title={t('poi:weather.title')} testId="mpoi-weather">
      {temp && <BigFigure label={temp.name} value={temp.value} unit={temp.unit} time={time} testId="mpoi-air-temp" />}
      <Tiles>
        {has(catalogue, 'windSpeed') && (
          <Tile
            testId="mpoi-wind"
            label={t('poi:weather.windLevel')}
            value={wind ? t('poi:weather.level', { level: wind.level }) : MISSING}
            note={wind ? `${t(`poi:wind.levels.${Math.max(0, Math.min(12, wind.level)) as 0}`)} · ${formatWithUnit(wind.speed, 'm/s', 1)}` : undefined}
            reserveNote
          />
        )}
        {has(catalogue, 'windDirection') && (
          <Tile
            testId="mpoi-wind-direction"
            label={t('poi:weather.windDirection')}
            value={
              wind?.sector ? (
                <span className="fw-mpoi-wind">
                  {wind.direction != null && <span className="fw-mpoi-wind__arrow" style={{ transform: `rotate(${wind.direction + 180}deg)` }} aria-hidden>↑</span>}
                  {t(`poi:wind.sectors.${wind.sector as 'N'}`)}
                </span>
              ) : (
                MISSING
              )
            }
            note={wind?.direction == null ? undefined : t('weather.from', { degrees: formatValue(wind.direction, 0) })}
            reserveNote
          />
        )}
        {has(catalogue, 'rainfall') && (
          <Tile
            testId="mpoi-rain-class"
            label={t('poi:weather.rain24h')}
            value={rain ? formatValue(rain.rain24h, 1) : MISSING}
            unit="mm"
            note={rainKey ? t(`poi:rain.classes.${rainKey}`) : undefined}
            reserveNote
          />
        )}
        {/* In its place from the start, graded when the server has graded the readings. */}
        {(grade || POLLUTANT_PARAMS.some((id) => has(catalogue, id))) && (
          <Tile
            testId="mpoi-air-quality"
            label={t('poi:weather.airQuality')}
            value={grade ? t(`poi:airQuality.grades.${grade as 1}`) : MISSING}
            accent={grade ? GRADE_COLORS[grade as 1] : undefined}
          />
        )}
        {rest.map((f) => (
          <Tile key={f.id} label={f.name} value={f.value} unit={f.unit} testId={`mpoi-figure-${f.id}`} />
        ))}
      </Tiles>
    </Section>
  );
}

/** The rain gauge: the last hour, 12 and 24 hours and today, graded, with the rainstorm signal. */
export function RainFigures({ device }: KindProps) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const latest = useRainLatest(device.id).data;
  const warning = useEarlyWarning(device.id).data;
  const stats = useRainStats(device.id).data;
  const cls = (name: string | undefined) => {
    const key = rainClassKey(name);
    return key ? t(`poi:rain.classes.${key}`) : undefined;
  };
  return (
    <Section title={t('poi:rain.title')} extra={<WarningBadge warning={latest?.warning ?? warning?.current} />} testId="mpoi-rain">
      <BigFigure testId="mpoi-rain-today" label={t('poi:rain.today')} value={amount(latest?.today, 1)} unit="mm" note={stats ? t('poi:rain.yesterday', { mm: formatWithUnit(stats.yesterday, 'mm', 1) }) : undefined} time={latest?.time} reserve />
      <Tiles>
        <Tile testId="mpoi-rain-1h" label={t('poi:rain.lastHour')} value={amount(latest?.rain1h, 1)} unit="mm" note={cls(latest?.class1h)} reserveNote />
        <Tile testId="mpoi-rain-12h" label={t('poi:rain.last12Hours')} value={amount(warning?.rain12h, 1)} unit="mm" reserveNote />
        <Tile testId="mpoi-rain-24h" label={t('poi:rain.last24Hours')} value={amount(latest?.rain24h, 1)} unit="mm" note={cls(latest?.class24h)} reserveNote />
        <Tile testId="mpoi-rain-7d" label={t('poi:rain.lastSevenDays')} value={amount(stats?.week, 1)} unit="mm" reserveNote />
      </Tiles>
      <p className="fw-mpoi-hint">
        {latest?.lastRain ? t('poi:rain.lastRain', { time: formatReportTime(latest.lastRain) }) : latest ? t('poi:rain.noRainThisWeek') : '\u00a0'}
      </p>
    </Section>
  );
}

/** The limits alert rules set on a parameter, and whether the reading crosses one now. */
function LimitState({ value, thresholds, unit, precision, testId }: { value: number | null; thresholds: readonly Threshold[]; unit: string; precision: number; testId: string }) {
  const { t } = useTranslation('mobilePoi');
  const state = alarmState(value, thresholds);
  return (
    <div className="fw-mpoi-limits" data-testid={testId}>
      <div className="fw-mpoi-limits__state">
        {thresholds.length === 0 ? (
          <Tag color="default" fill="outline">{t('limits.noRules')}</Tag>
        ) : state === 'alarm' ? (
          <Tag color="danger">{t('limits.alarm')}</Tag>
        ) : state === 'normal' ? (
          <Tag color="warning">{t('limits.warning')}</Tag>
        ) : (
          <Tag color="success">{t('limits.ok')}</Tag>
        )}
      </div>
      {thresholds.length > 0 && (
        <ul className="fw-mpoi-limits__list">
          {thresholds.map((th, i) => (
            <li key={`${th.ruleId}-${i}`}>
              <span>{th.ruleName}</span>
              <b>{thresholdText(th, unit, (v) => formatValue(v, precision))}</b>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function useRuleThresholds(deviceId: number, param: string) {
  const rules = useRules({ page: 1, size: 100 });
  return useMemo(() => thresholdsFor(rules.data?.list ?? [], deviceId, param), [rules.data, deviceId, param]);
}

/** The water level with the limits set on it, the water temperature and the host/slave units. */
export function LevelFigures({ device, catalogue, readings }: KindProps) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const lang = useLang();
  const level = latestValue(readings, 'waterLevel');
  const param = paramOf(catalogue, 'waterLevel');
  const thresholds = useRuleThresholds(device.id, 'waterLevel');
  const topology = useTopology(device.id, lang).data;
  const temp = surfaceFigures(readings, catalogue.params, ['waterTemp']);
  const units = topology ? [topology.host, ...topology.slaves] : [];
  return (
    <Section title={t('poi:level.title')} testId="mpoi-level">
      <BigFigure
        testId="mpoi-water-level"
        label={param?.name ?? t('poi:level.level')}
        value={formatValue(level, 2)}
        unit="m"
        note={t('poi:level.levelHint')}
        time={readings.get('waterLevel')?.get(0)?.time}
      />
      <LimitState value={level} thresholds={thresholds} unit="m" precision={2} testId="mpoi-level-limits" />
      <FigureTiles figures={temp} />
      {units.length > 1 && (
        <ul className="fw-mpoi-units" data-testid="mpoi-units">
          {units.map((unit) => (
            <li key={unit.id} className={unit.id === device.id ? 'is-current' : undefined}>
              <Tag color={unit.slave ? 'primary' : 'success'} fill="outline">
                {unit.slave ? t('poi:level.slave') : t('poi:level.host')}
              </Tag>
              <span className="fw-mpoi-units__name">{unit.name}</span>
              <span className="fw-mpoi-units__meta">{formatReportTime(unit.lastReportTime)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The tilt angle large, its X and Y parts, the trend and whether an alert rule's limit is crossed. */
export function TiltFigures({ device, catalogue, readings }: KindProps) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const lang = useLang();
  const angle = latestValue(readings, 'tiltAngle');
  const thresholds = useRuleThresholds(device.id, 'tiltAngle');
  const trend = useTiltTrend(device.id, lang).data?.series.find((s) => s.param === 'tiltAngle')?.trend ?? null;
  const parts = surfaceFigures(readings, catalogue.params, ['tiltX', 'tiltY']);
  return (
    <Section title={t('poi:tilt.title')} testId="mpoi-tilt">
      <BigFigure
        testId="mpoi-tilt-angle"
        label={paramOf(catalogue, 'tiltAngle')?.name ?? 'tiltAngle'}
        value={formatValue(angle, 2)}
        unit="°"
        time={readings.get('tiltAngle')?.get(0)?.time}
      />
      <LimitState value={angle} thresholds={thresholds} unit="°" precision={2} testId="mpoi-tilt-limits" />
      <Tiles>
        {parts.map((f) => (
          <Tile key={f.id} label={f.name} value={f.value} unit={f.unit} testId={`mpoi-figure-${f.id}`} />
        ))}
        <Tile
          testId="mpoi-tilt-rate"
          label={t('tilt.rate')}
          value={trend?.ratePerDay == null ? MISSING : formatValue(trend.ratePerDay, 3)}
          unit={t('poi:tilt.perDayUnit')}
          note={trend?.cumulative == null ? undefined : t('tilt.cumulative', { value: formatValue(trend.cumulative, 2) })}
        />
      </Tiles>
    </Section>
  );
}

/** The newest picture large, older ones as thumbnails; a tap opens them full screen. */
export function Gallery({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const images = useImages(deviceId, 9);
  const list = images.data ?? [];
  const [viewing, setViewing] = useState<number | null>(null);
  const srcs = list.map((image) => imageSrc(deviceId, image.id));
  const [latest, ...older] = list;
  const wechat = useWeChat();
  // Inside WeChat its own viewer (zoom, save, long-press menu); elsewhere, or before WeChat is ready, the app's.
  const view = (index: number) => {
    if (!wechat.previewImage({ current: srcs[index], urls: srcs })) setViewing(index);
  };
  return (
    <Section title={t('poi:camera.images')} extra={latest ? formatReportTime(latest.time) : undefined} testId="mpoi-gallery">
      {images.isPending ? (
        // The latest picture's place, kept while the list loads: the sections below do not move when it comes.
        <div aria-busy="true">
          <div className="fw-mpoi-gallery__latest fw-mpoi-gallery__placeholder" role="img" aria-label={t('poi:camera.loading')} />
          <div className="fw-mpoi-gallery__thumbs">
            <div className="fw-mpoi-gallery__placeholder fw-mpoi-gallery__placeholder--thumb" />
          </div>
        </div>
      ) : list.length === 0 ? (
        <p className="fw-mpoi-hint">{t('poi:camera.none')}</p>
      ) : (
        <>
          <button type="button" className="fw-mpoi-gallery__latest" onClick={() => view(0)} data-testid="mpoi-image-latest">
            <Image src={srcs[0]} alt={t('poi:camera.imageAlt', { time: formatDateTime(latest.time) })} fit="cover" lazy={false} />
            <span>{formatDateTime(latest.time)}</span>
          </button>
          <div className="fw-mpoi-gallery__thumbs">
            {older.map((image, index) => (
              <button type="button" key={image.id} onClick={() => view(index + 1)} data-testid="mpoi-image-thumb">
                <Image src={srcs[index + 1]} alt={t('poi:camera.imageAlt', { time: formatDateTime(image.time) })} fit="cover" />
                <span>{formatReportTime(image.time)}</span>
              </button>
            ))}
          </div>
          <ImageViewer.Multi
            images={srcs}
            visible={viewing !== null}
            defaultIndex={viewing ?? 0}
            key={viewing ?? -1}
            onClose={() => setViewing(null)}
          />
        </>
      )}
    </Section>
  );
}

/** Insects caught today, in the last 24 hours and the last 7 days, with the trap's own climate. */
export function InsectFigures({ device, catalogue, readings }: KindProps) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const trap = has(catalogue, 'insectCount');
  const { amounts } = useRecentAmounts(device.id, 'insectCount', now, trap);
  const climate = surfaceFigures(readings, catalogue.params, ['airTemp', 'airHumidity', 'illuminance']);
  return (
    <>
      {trap && (
        <Section title={t('camera.counts')} testId="mpoi-insects">
          <BigFigure testId="mpoi-insects-today" label={t('camera.today')} value={amount(amounts?.today, 0)} />
          <Tiles>
            <Tile label={t('camera.last24Hours')} value={amount(amounts?.last24Hours, 0)} />
            <Tile label={t('camera.lastSevenDays')} value={amount(amounts?.lastSevenDays, 0)} />
          </Tiles>
        </Section>
      )}
      {climate.length > 0 && (
        <Section testId="mpoi-climate">
          <FigureTiles figures={climate} />
        </Section>
      )}
    </>
  );
}

/** The valve open or closed in colour, flow and pressure, water used today and this week. */
export function IrrigationFigures({ device, readings }: KindProps) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const now = useNow();
  const { amounts } = useRecentAmounts(device.id, 'waterVolume', now);
  const valve = latestValue(readings, 'valveState');
  const flow = latestValue(readings, 'flowRate');
  const pressure = latestValue(readings, 'pipePressure');
  const open = valve !== null && valve >= 1;
  return (
    <Section title={t('poi:irrigation.title')} testId="mpoi-irrigation">
      <BigFigure
        testId="mpoi-valve"
        label={t('poi:irrigation.valve')}
        value={valve === null ? MISSING : open ? t('poi:states.open') : t('poi:states.closed')}
        accent={valve === null ? undefined : open ? 'var(--adm-color-success)' : 'var(--adm-color-weak)'}
        time={readings.get('valveState')?.get(0)?.time}
        note={t('irrigation.controlOnDevice')}
      />
      <Tiles>
        <Tile label={t('poi:irrigation.flow')} value={formatValue(flow, 2)} unit="m³/h" />
        <Tile label={t('poi:irrigation.pressure')} value={formatValue(pressure, 2)} unit="MPa" />
        <Tile label={t('poi:irrigation.today')} value={amount(amounts?.today, 2)} unit="m³" />
        <Tile label={t('poi:irrigation.lastSevenDays')} value={amount(amounts?.lastSevenDays, 2)} unit="m³" />
      </Tiles>
    </Section>
  );
}
