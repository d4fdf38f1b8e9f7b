import { Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { useThemeMode } from '@/lib/theme';
import { useHistory } from '../../api/get-history';
import { bucketSums, roundAmount } from '../../lib/amounts';
import { timeSeriesOption } from '../../lib/chart-options';
import { peakWarning } from '../../lib/rain';
import { DAY, HOUR } from '../../lib/time-range';
import { formatWithUnit } from '../../lib/values';
import { ChartBlock } from '../chart-block';
import type { HistoryContext } from '../history-card';
import { WarningBadge } from './rain-summary';

/** Raw readings are summed here; past a month the daily totals are asked for instead. */
const RAW_LIMIT = 31 * DAY;

/** Rain per hour (a week or less) or per day, and the highest warning level reached in the period. */
export function RainfallView({ deviceId, range, dim }: HistoryContext) {
  const { t } = useTranslation('poi');
  const { mode } = useThemeMode();
  const span = range.end - range.begin;
  const daily = dim === 'daily' || span > RAW_LIMIT;
  const history = useHistory(deviceId, { ...range, params: ['rainfall'], dim: daily ? 'daily' : 'raw', points: 10_000 });
  const raw = history.data?.series.find((series) => series.param === 'rainfall');
  const perDay = daily || span > 7 * DAY;

  const { bars, peak, total } = useMemo(() => {
    if (!raw || history.data?.dim !== (daily ? 'daily' : 'raw')) return { bars: null, peak: null, total: null };
    const summed = daily ? { t: raw.t, v: raw.v } : bucketSums(raw, perDay ? DAY : HOUR);
    return {
      bars: summed,
      // Downsampled readings no longer add up to the windows' totals.
      peak: daily || raw.sampled ? null : peakWarning(raw),
      total: roundAmount(summed.v.reduce((sum, value) => sum + value, 0)),
    };
  }, [raw, daily, perDay, history.data?.dim]);

  const name = perDay ? t('rain.dailyRain') : t('rain.hourlyRain');
  const option = useMemo(
    () =>
      bars
        ? timeSeriesOption({
            series: [{ key: 'rain', name, kind: 'bar', t: bars.t, v: bars.v }],
            unit: 'mm',
            precision: 1,
            range,
            daily: perDay,
            dark: mode === 'dark',
          })
        : null,
    [bars, name, range, perDay, mode],
  );

  return (
    <div>
      <div className="fw-poi-view-facts">
        <Typography.Text>
          {t('rain.periodTotal')} <b data-testid="poi-rain-total">{formatWithUnit(total, 'mm', 1)}</b>
        </Typography.Text>
        {peak && (
          <Typography.Text>
            {t('rain.peakWarning')} <WarningBadge level={peak.level} />
            {peak.time ? <Typography.Text type="secondary"> {formatDateTime(peak.time)}</Typography.Text> : null}
          </Typography.Text>
        )}
      </div>
      <ChartBlock
        title={`${name} (mm)`}
        option={option}
        empty={!bars || bars.t.length === 0}
        loading={history.isFetching}
        error={history.error}
        height={280}
        label={name}
      />
    </div>
  );
}
