import { Card, Col, Empty, Row, Skeleton, Tag, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure } from '@/components/summary-card';
import { farmTime } from '@/lib/farm-time';
import { formatValue, formatWithUnit, MISSING } from '@/lib/format';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { WARNING_HEX, warningTextColor } from '@/lib/rain-grades';
import { useFwiHistory } from '../api/get-fwi-history';
import { useFwiStatistics } from '../api/get-fwi-statistics';
import { useWeatherAlerts } from '../api/get-weather-alerts';
import type { FwiDay } from '../types';

/** The 16 warning types of SPEC §9, in the server's names. */
const ALERT_TYPES = [
  'typhoon',
  'rainstorm',
  'blizzard',
  'coldWave',
  'gale',
  'sandstorm',
  'highTemperature',
  'drought',
  'thunder',
  'hail',
  'frost',
  'fog',
  'haze',
  'roadIcing',
  'forestFire',
  'thunderstormGale',
] as const;
type AlertType = (typeof ALERT_TYPES)[number];
const isAlertType = (type: string): type is AlertType => (ALERT_TYPES as readonly string[]).includes(type);
const BASES = [
  'rain3h',
  'rain6h',
  'rain12h',
  'wind24h',
  'wind12h',
  'wind6h',
  'tempMax3d',
  'tempMax24h',
  'tempMin24h',
  'fwi',
  'tempDrop24h',
  'tempDrop48h',
  'snow6h',
  'snow12h',
  'mi30',
  'forecastRain24h',
  'forecastSnow24h',
  'forecastTempMax',
  'forecastTempMax3d',
  'forecastTempMin',
  'forecastTempDrop24h',
  'forecastTempDrop48h',
  'forecastWind',
  'feed',
] as const;
type Basis = (typeof BASES)[number];
const isBasis = (basis: string): basis is Basis => (BASES as readonly string[]).includes(basis);
/** Source badges: antd presets readable on light and dark backgrounds. */
// Colours whose text stays readable on both themes (axe colour contrast): not purple or geekblue.
const SOURCE_TAGS = { station: 'green', forecast: 'blue', feed: 'gold' } as const;

/** SPEC §4 fire levels 0 (normal) to 5, green to dark red. */
export const FWI_COLORS = ['#52c41a', '#1677ff', '#fadb14', '#fa8c16', '#f5222d', '#a8071a'] as const;
/** The same levels as antd tag presets, readable on light and dark backgrounds. */
const FWI_TAGS = ['green', 'blue', 'gold', 'orange', 'red', 'magenta'] as const;

function AlertsPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const query = useWeatherAlerts(deviceId);
  const data = query.data;
  if (query.error) return <ServerErrorAlert error={query.error} />;
  if (!data) return <Skeleton active />;
  const typeName = (type: string) => (isAlertType(type) ? t(`weatherAlerts.types.${type}`) : type);
  const typeList = (types: string[]) => types.map(typeName).join(t('listSeparator')) || MISSING;
  const byForecast = (data.checks ?? []).filter((c) => c.by.includes('forecast')).map((c) => c.type);
  const needFeed = data.needFeed ?? [];
  return (
    <div data-testid="poi-weather-alerts">
      {data.alerts.length === 0 ? (
        <Empty data-testid="poi-weather-alerts-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('weatherAlerts.none')} />
      ) : (
        <ul className="fw-poi-alerts">
          {data.alerts.map((alert) => {
            const level = Math.max(1, Math.min(4, alert.level)) as 1 | 2 | 3 | 4;
            const source = alert.source ?? 'station';
            return (
              <li
                key={`${alert.type}-${alert.basis}-${source}-${alert.headline ?? ''}`}
                className="fw-poi-alerts__item"
                style={{ borderLeftColor: WARNING_HEX[level] }}
                data-testid={`poi-weather-alert-${alert.type}-${source}`}
              >
                <span className="fw-poi-warning" style={{ background: WARNING_HEX[level], color: warningTextColor(level) }}>
                  {t('weatherAlerts.signal', {
                    type: typeName(alert.type),
                    code: alert.code,
                    color: t(`rain.warning.colors.${alert.color === 'none' ? 'blue' : alert.color}`),
                  })}
                </span>
                <Tag color={SOURCE_TAGS[source]}>{t(`weatherAlerts.sources.${source}`)}</Tag>
                {source === 'feed' ? (
                  <Typography.Text type="secondary">
                    {[alert.headline, alert.area, alert.expires ? t('weatherAlerts.feedUntil', { time: farmTime(alert.expires).format('MM-DD HH:mm') }) : '']
                      .filter(Boolean)
                      .join(' · ')}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">
                    {t('weatherAlerts.basis', {
                      basis: isBasis(alert.basis) ? t(`weatherAlerts.bases.${alert.basis}`) : alert.basis,
                      value: alert.unit ? formatWithUnit(alert.value, alert.unit) : formatValue(alert.value, 2),
                    })}
                    {source === 'forecast' && alert.day ? ` · ${t('weatherAlerts.forecastDay', { day: farmTime(alert.day).format('YYYY-MM-DD') })}` : ''}
                  </Typography.Text>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Typography.Paragraph type="secondary" className="fw-poi-analysis__criteria" data-testid="poi-weather-alerts-checks">
        <Tag color={SOURCE_TAGS.station}>{t('weatherAlerts.sources.station')}</Tag>
        {t('weatherAlerts.checked', { types: typeList(data.checked) })}
        <br />
        <Tag color={SOURCE_TAGS.forecast}>{t('weatherAlerts.sources.forecast')}</Tag>
        {data.forecast ? t('weatherAlerts.byForecast', { types: typeList(byForecast) }) : t('weatherAlerts.noForecast')}
        <br />
        <Tag color={SOURCE_TAGS.feed}>{t('weatherAlerts.sources.feed')}</Tag>
        {data.feed === 'ok'
          ? t('weatherAlerts.byFeed')
          : data.feed === 'unavailable'
            ? t('weatherAlerts.feedUnavailable', { types: typeList(needFeed) })
            : t('weatherAlerts.needFeed', { types: typeList(needFeed) })}
      </Typography.Paragraph>
    </div>
  );
}

function fwiOption(days: FwiDay[], label: string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 24, bottom: 28 },
    xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)) },
    yAxis: { type: 'value', name: 'FWI', minInterval: 1 },
    series: [
      {
        name: label,
        type: 'bar',
        barMaxWidth: 18,
        data: days.map((d) => ({ value: d.fwi, itemStyle: { color: FWI_COLORS[Math.max(0, Math.min(5, d.level ?? 0))] } })),
      },
    ],
  };
}

function FwiPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const stats = useFwiStatistics(deviceId);
  const history = useFwiHistory(deviceId);
  const days = history.data?.days;
  const option = useMemo(() => fwiOption(days ?? [], 'FWI'), [days]);
  if (stats.error) return <ServerErrorAlert error={stats.error} />;
  if (!stats.data) return <Skeleton active />;
  const s = stats.data;
  const latestLevel = s.latest?.level ?? null;
  const levelName = (level: number | null) => (level === null ? MISSING : t(`fwi.levels.${Math.max(0, Math.min(5, level)) as 0 | 1 | 2 | 3 | 4 | 5}`));
  return (
    <div data-testid="poi-fwi">
      <div className="fw-poi-figures">
        <KeyFigure
          label={t('fwi.latest')}
          value={formatValue(s.latest?.fwi ?? null)}
          detail={s.latest ? `${s.latest.date} · ${levelName(latestLevel)}` : t('fwi.noDay')}
          accent={latestLevel !== null ? FWI_COLORS[Math.max(0, Math.min(5, latestLevel))] : undefined}
        />
        <KeyFigure label={t('fwi.mean')} value={formatValue(s.mean)} />
        <KeyFigure label={t('fwi.max')} value={formatValue(s.max?.fwi ?? null)} detail={s.max ? s.max.date : undefined} />
        <KeyFigure label={t('fwi.days')} value={String(s.days)} detail={t('fwi.missing', { count: s.missing })} />
      </div>
      <div className="fw-poi-fwi-levels">
        {s.levels.map((l) => (
          <Tag key={l.level} color={FWI_TAGS[Math.max(0, Math.min(5, l.level))]} className="fw-poi-fwi-levels__tag">
            {levelName(l.level)}: {t('fwi.dayCount', { count: l.days })}
          </Tag>
        ))}
      </div>
      {days?.some((d) => d.fwi !== null) ? (
        <LazyChart option={option} height={200} label={t('fwi.chartLabel')} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fwi.empty')} />
      )}
    </div>
  );
}

/** The readings the fire weather index is computed from (internal/weather/fwi.go). */
export const FWI_PARAMS = ['airTemp', 'airHumidity', 'windSpeed', 'rainfall'] as const;

/** Whether the device type measures everything the fire weather index needs. */
export function hasFwiInputs(catalogue: ParamCatalogue): boolean {
  const ids = new Set(catalogue.params.map((param) => param.id));
  return FWI_PARAMS.every((id) => ids.has(id));
}

/**
 * The weather station's warning signals and its fire weather index; the index only for a type
 * that measures its inputs (a station without a rain gauge has none to show).
 */
export function WeatherAnalysesCard({ deviceId, catalogue }: { deviceId: number; catalogue: ParamCatalogue }) {
  const { t } = useTranslation('poi');
  const fwi = hasFwiInputs(catalogue);
  return (
    <Row gutter={[16, 16]} className="fw-poi-section" data-testid="poi-weather-analyses">
      <Col xs={24} xl={fwi ? 10 : 24}>
        <Card variant="borderless" title={t('weatherAlerts.title')} style={{ height: '100%' }}>
          <AlertsPanel deviceId={deviceId} />
        </Card>
      </Col>
      {fwi && (
        <Col xs={24} xl={14}>
          <Card variant="borderless" title={t('fwi.title')} style={{ height: '100%' }}>
            <FwiPanel deviceId={deviceId} />
          </Card>
        </Col>
      )}
    </Row>
  );
}
