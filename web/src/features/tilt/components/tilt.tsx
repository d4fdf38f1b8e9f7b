import { Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartBlock } from '@/components/charts/chart-block';
import { timeSeriesOption, type ChartSeries } from '@/components/charts/chart-options';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatDateTime, formatValue, MISSING } from '@/lib/format';
import { useHistory } from '@/lib/telemetry/get-history';
import { latestValue, type ReadingIndex } from '@/lib/telemetry/readings';
import type { HistoryContext, ParamCatalogue } from '@/lib/telemetry/types';
import { useThemeMode } from '@/lib/theme';
import { bucketSize, DAY, HOUR } from '@/lib/time-range';
import { useNow } from '@/lib/use-now';
import { useTiltYaw } from '../api/get-tilt-yaw';
import { yawOption } from '../lib/chart-options';
import { changeOver, largestMagnitude, smoothedRatePerHour } from '../lib/tilt';

const TILT_PARAMS = ['tiltAngle', 'tiltX', 'tiltY'];

function signed(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return MISSING;
  const text = formatValue(value, digits);
  return value > 0 && text !== '0' ? `+${text}` : text;
}

/** The tilt now, how much it moved in the last day and the fastest change in that day. */
export function TiltSummary({ deviceId, catalogue, readings }: { deviceId: number; catalogue: ParamCatalogue; readings: ReadingIndex }) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const end = Math.ceil(now / 60_000) * 60_000;
  const history = useHistory(deviceId, { begin: end - 2 * DAY, end, params: ['tiltAngle'], dim: 'raw', points: 10_000 });
  const data = history.data;
  const { day, fastest } = useMemo(() => {
    const angle = data?.series.find((s) => s.param === 'tiltAngle');
    if (!angle) return { day: null, fastest: null };
    const rates = smoothedRatePerHour(angle, HOUR);
    const since = end - DAY;
    const fastestPerHour = largestMagnitude(rates.v.filter((_, index) => rates.t[index] > since));
    return { day: changeOver(angle, 24), fastest: fastestPerHour === null ? null : fastestPerHour * 24 };
  }, [data, end]);
  const name = (id: string) => catalogue.params.find((p) => p.id === id)?.name ?? id;

  return (
    <SummaryCard title={t('tilt.title')} testId="poi-tilt-summary">
      <div className="fw-poi-figures">
        <KeyFigure testId="poi-tilt-angle" label={name('tiltAngle')} value={formatValue(latestValue(readings, 'tiltAngle'), 2)} unit="°" />
        <KeyFigure label={name('tiltX')} value={formatValue(latestValue(readings, 'tiltX'), 2)} unit="°" />
        <KeyFigure label={name('tiltY')} value={formatValue(latestValue(readings, 'tiltY'), 2)} unit="°" />
        <KeyFigure
          testId="poi-tilt-change"
          label={t('tilt.change24h')}
          value={signed(day?.change)}
          unit={day ? '°' : undefined}
          detail={day ? t('tilt.perDay', { value: signed(day.perDay, 2) }) : undefined}
        />
        <KeyFigure
          label={t('tilt.fastest24h')}
          value={signed(fastest)}
          unit={fastest === null ? undefined : t('tilt.perDayUnit')}
          detail={t('tilt.fastestHint')}
        />
      </div>
    </SummaryCard>
  );
}

/** The tilt over the period and its rate of change, from every reading. */
export function TiltTrendView({ deviceId, catalogue, range }: HistoryContext) {
  const { t } = useTranslation('poi');
  const { mode } = useThemeMode();
  const params = useMemo(() => catalogue.params.filter((p) => TILT_PARAMS.includes(p.id)), [catalogue]);
  const history = useHistory(deviceId, { ...range, params: params.map((p) => p.id), dim: 'raw', points: 10_000 });
  const data = history.data?.dim === 'raw' ? history.data : undefined;
  const dark = mode === 'dark';

  const angleOption = useMemo(() => {
    if (!data) return null;
    const series: ChartSeries[] = params.map((p) => {
      const found = data.series.find((s) => s.param === p.id);
      return { key: p.id, name: p.name, kind: 'line', t: found?.t ?? [], v: found?.v ?? [], dashed: p.id !== 'tiltAngle' };
    });
    return { option: timeSeriesOption({ series, unit: '°', precision: 2, range, dark }), empty: series.every((s) => s.t.length === 0) };
  }, [data, params, range, dark]);

  const rateOption = useMemo(() => {
    const angle = data?.series.find((s) => s.param === 'tiltAngle');
    if (!angle) return null;
    // Hourly means at least; longer periods use coarser ones so the chart stays readable. Slopes move
    // by hundredths of a degree an hour, so the rate reads in degrees a day.
    const rate = smoothedRatePerHour(angle, Math.max(HOUR, bucketSize(range, 400)));
    const perDay = rate.v.map((value) => value * 24);
    const unit = t('tilt.perDayUnit');
    const series: ChartSeries[] = [{ key: 'rate', name: t('tilt.rate'), kind: 'line', t: rate.t, v: perDay, color: '#fa8c16' }];
    return { option: timeSeriesOption({ series, unit, precision: 2, range, dark }), empty: rate.t.length === 0 };
  }, [data, range, dark, t]);

  return (
    <div>
      <ChartBlock
        title={t('tilt.trend')}
        option={angleOption?.option ?? null}
        empty={angleOption?.empty ?? true}
        loading={history.isFetching}
        error={history.error}
        height={260}
        label={t('tilt.trend')}
      />
      <ChartBlock
        title={`${t('tilt.rate')} (${t('tilt.perDayUnit')})`}
        extra={<Typography.Text type="secondary">{t('tilt.rateHint')}</Typography.Text>}
        option={rateOption?.option ?? null}
        empty={rateOption?.empty ?? true}
        loading={history.isFetching}
        error={history.error}
        height={200}
        label={t('tilt.rate')}
      />
    </div>
  );
}


/** Which way the monitor leans and how far, from the X and Y tilt of each report (GET /apis/poi/tilt/yaw). */
export function TiltYawView({ deviceId, range }: HistoryContext) {
  const { t } = useTranslation('poi');
  const dark = useThemeMode().mode === 'dark';
  const query = useTiltYaw(deviceId, range);
  const data = query.data;
  const option = useMemo(
    () =>
      data && data.points.length > 0
        ? yawOption({
            points: data.points,
            labels: {
              points: t('yaw.points'),
              latest: t('yaw.latest'),
              direction: t('yaw.direction'),
              tilt: t('yaw.tilt'),
              xAxis: t('yaw.xAxis'),
              yAxis: t('yaw.yAxis'),
            },
            dark,
          })
        : null,
    [data, t, dark],
  );
  const directionOption = useMemo(() => {
    if (!data || data.points.length === 0) return null;
    const series: ChartSeries[] = [
      { key: 'direction', name: t('yaw.direction'), kind: 'line', t: data.points.map((p) => p.time), v: data.points.map((p) => p.direction), color: '#fa8c16' },
    ];
    return timeSeriesOption({ series, unit: '°', precision: 1, range, dark });
  }, [data, range, dark, t]);
  const latest = data?.latest ?? null;
  return (
    <div data-testid="poi-tilt-yaw">
      <div className="fw-poi-figures">
        <KeyFigure
          testId="poi-yaw-direction"
          label={t('yaw.direction')}
          value={latest ? formatValue(latest.direction, 1) : MISSING}
          unit={latest ? '°' : undefined}
          detail={t('yaw.directionHint')}
        />
        <KeyFigure
          testId="poi-yaw-tilt"
          label={t('yaw.tilt')}
          value={latest ? formatValue(latest.tilt, 2) : MISSING}
          unit={latest ? '°' : undefined}
          detail={latest ? formatDateTime(latest.time) : undefined}
        />
        <KeyFigure label={t('yaw.count')} value={data ? String(data.points.length) : MISSING} />
      </div>
      <ChartBlock
        title={t('yaw.title')}
        extra={<Typography.Text type="secondary">{t('yaw.hint')}</Typography.Text>}
        option={option}
        empty={!option}
        emptyText={t('yaw.empty')}
        loading={query.isFetching}
        error={query.error}
        height={380}
        label={t('yaw.title')}
      />
      {directionOption && (
        <ChartBlock
          title={`${t('yaw.directionOverTime')} (°)`}
          extra={<Typography.Text type="secondary">{t('yaw.directionOverTimeHint')}</Typography.Text>}
          option={directionOption}
          empty={false}
          loading={query.isFetching}
          height={200}
          label={t('yaw.directionOverTime')}
        />
      )}
    </div>
  );
}
