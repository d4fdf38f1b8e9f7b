import { Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartBlock } from '@/components/charts/chart-block';
import { formatDateTime, formatWithUnit } from '@/lib/format';
import { rainClassKey, warningLevel } from '@/lib/rain-grades';
import type { HistoryContext } from '@/lib/telemetry/types';
import { useThemeMode } from '@/lib/theme';
import { useEarlyWarning } from '../api/get-early-warning';
import { useRainSeries } from '../api/get-rain-series';
import { rainBarsOption } from '../lib/chart-options';
import { overlaps, rainDimFor, warningDaysFor } from '../lib/rain';
import { WarningBadge } from './rain-summary';

/** Rain per hour (a week or less) or per day as the server sums it, and the highest warning of the period. */
export function RainfallView({ deviceId, range, dim }: HistoryContext) {
  const { t } = useTranslation('poi');
  const { mode } = useThemeMode();
  const rainDim = rainDimFor(range, dim);
  const series = useRainSeries(deviceId, rainDim, range);
  const days = warningDaysFor(range.begin);
  const warnings = useEarlyWarning(deviceId, days ?? 1, days !== null);
  const data = series.data?.dim === rainDim ? series.data : undefined;

  const peak = useMemo(() => {
    if (days === null || !warnings.data) return null;
    const spells = warnings.data.episodes.filter((spell) => overlaps(spell, range));
    // Newest first: on equal levels the earliest spell is the one that reached it first.
    return spells.reduce<(typeof spells)[number] | null>((best, spell) => (!best || warningLevel(spell) >= warningLevel(best) ? spell : best), null);
  }, [days, warnings.data, range]);

  const name = rainDim === 'day' ? t('rain.dailyRain') : t('rain.hourlyRain');
  const option = useMemo(
    () =>
      data
        ? rainBarsOption({
            bars: data.list.map((b) => {
              const key = rainClassKey(b.class);
              return { time: b.time, mm: b.mm, note: key && key !== 'none' ? t(`rain.classes.${key}`) : undefined };
            }),
            name,
            range,
            daily: rainDim === 'day',
            dark: mode === 'dark',
          })
        : null,
    [data, name, range, rainDim, mode, t],
  );

  return (
    <div>
      <div className="fw-poi-view-facts">
        <Typography.Text>
          {t('rain.periodTotal')} <b data-testid="poi-rain-total">{formatWithUnit(data?.total ?? null, 'mm', 1)}</b>
        </Typography.Text>
        {days !== null && warnings.data && (
          <Typography.Text data-testid="poi-rain-peak">
            {t('rain.peakWarning')} <WarningBadge warning={peak} />
            {peak ? <Typography.Text type="secondary"> {formatDateTime(peak.start)}</Typography.Text> : null}
          </Typography.Text>
        )}
      </div>
      <ChartBlock
        title={`${name} (mm)`}
        option={option}
        empty={!data || data.list.every((b) => b.mm === null)}
        loading={series.isFetching}
        error={series.error}
        height={280}
        label={name}
      />
    </div>
  );
}
