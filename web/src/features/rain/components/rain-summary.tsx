import { Tooltip, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatDateTime, formatReportTime, formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { rainClassKey, WARNING_HEX, warningLevel, warningTextColor, type Warning } from '@/lib/rain-grades';
import { useThemeMode } from '@/lib/theme';
import { useEarlyWarning } from '../api/get-early-warning';
import { useRainLatest } from '../api/get-rain-latest';
import { useRainRealtime } from '../api/get-rain-realtime';
import { useRainStats } from '../api/get-rain-stats';
import { recentRainOption } from '../lib/chart-options';
import type { RainRealtime, WarningCriterion } from '../types';

/** A rainstorm signal as the server decided it: its code and colour, or "no warning". */
export function WarningBadge({ warning }: { warning: Pick<Warning, 'level' | 'code' | 'color'> | null | undefined }) {
  const { t } = useTranslation('poi');
  const level = warningLevel(warning);
  if (level === 0 || !warning || warning.color === 'none') return <span className="fw-poi-warning fw-poi-warning--none">{t('rain.warning.none')}</span>;
  return (
    <span className="fw-poi-warning" style={{ background: WARNING_HEX[level], color: warningTextColor(level) }}>
      {t('rain.warning.level', { code: warning.code || `0${level}`, color: t(`rain.warning.colors.${warning.color}`) })}
    </span>
  );
}

/** The criteria the server applies, strongest first, for the tooltip and the warnings card. */
export function WarningCriteria({ criteria }: { criteria: readonly WarningCriterion[] }) {
  const { t } = useTranslation('poi');
  if (criteria.length === 0) return null;
  const strongestFirst = [...criteria].sort((a, b) => b.level - a.level);
  return (
    <div>
      <div>{t('rain.warning.criteriaTitle')}</div>
      <ul className="fw-poi-criteria">
        {strongestFirst.map(({ level, code, color, hours, mm }) => (
          <li key={level}>
            {t('rain.warning.criterion', { code, color: color === 'none' ? '' : t(`rain.warning.colors.${color}`), hours, mm })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Accumulation({ label, mm, rainClass, detail, testId }: { label: string; mm: number | null | undefined; rainClass?: string; detail?: string; testId: string }) {
  const { t } = useTranslation('poi');
  const key = rainClassKey(rainClass);
  const value = mm ?? null;
  return (
    <KeyFigure
      testId={testId}
      label={label}
      value={value === null ? MISSING : formatValue(value, 1)}
      unit={value === null ? undefined : 'mm'}
      detail={key ? t(`rain.classes.${key}`) : detail}
      reserveDetail
    />
  );
}

function RecentRainChart({ data }: { data: RainRealtime }) {
  const { t } = useTranslation('poi');
  const dark = useThemeMode().mode === 'dark';
  const option = useMemo<EChartsCoreOption>(
    () =>
      recentRainOption({
        hourly: data.hourly,
        cumulative: data.cumulative,
        range: { begin: data.begin, end: data.end },
        names: { hourly: t('rain.hourlyRain'), cumulative: t('rain.cumulative'), hourlyAxis: t('rain.perHourAxis'), cumulativeAxis: t('rain.totalAxis') },
        dark,
      }),
    [data, t, dark],
  );
  const title = t('rain.recentChart', { total: formatWithUnit(data.total, 'mm', 1) });
  return (
    <div className="fw-poi-summary__chart" data-testid="poi-rain-recent">
      {data.total > 0 ? (
        <>
          <Typography.Text type="secondary">{title}</Typography.Text>
          <LazyChart option={option} height={150} label={title} />
        </>
      ) : (
        <div className="fw-poi-rain-recent--dry">
          <Typography.Text type="secondary" data-testid="poi-rain-recent-dry">
            {t('rain.recentDry')}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}

/**
 * The rain gauge's totals (last hour, 12 and 24 hours, today, the week, month and year) with their
 * classes, the rainstorm signal in force and the last 24 hours hour by hour, all as the server
 * computes them (docs/analyses.md, Rain gauge).
 */
export function RainSummary({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const latest = useRainLatest(deviceId);
  const stats = useRainStats(deviceId);
  const warning = useEarlyWarning(deviceId);
  const recent = useRainRealtime(deviceId);
  const l = latest.data;
  const s = stats.data;
  const w = warning.data;
  const error = latest.error ?? stats.error;
  return (
    <SummaryCard
      title={t('rain.title')}
      testId="poi-rain-summary"
      extra={
        <span className="fw-poi-summary__extra">
          {l?.lastRain ? (
            <Tooltip title={formatDateTime(l.lastRain)}>
              <Typography.Text type="secondary" data-testid="poi-rain-last">
                {t('rain.lastRain', { time: formatReportTime(l.lastRain) })}
              </Typography.Text>
            </Tooltip>
          ) : l ? (
            <Typography.Text type="secondary" data-testid="poi-rain-last">
              {t('rain.noRainThisWeek')}
            </Typography.Text>
          ) : null}
          <Tooltip title={w ? <WarningCriteria criteria={w.criteria} /> : undefined}>
            <span data-testid="poi-rain-warning" className="fw-poi-help-wrap">
              <WarningBadge warning={l?.warning ?? w?.current} />
            </span>
          </Tooltip>
        </span>
      }
    >
      {error ? <ServerErrorAlert error={error} /> : null}
      <div className="fw-poi-figures fw-poi-figures--compact">
        <Accumulation testId="poi-rain-1h" label={t('rain.lastHour')} mm={l?.rain1h} rainClass={l?.class1h} />
        <Accumulation testId="poi-rain-12h" label={t('rain.last12Hours')} mm={w?.rain12h} />
        <Accumulation testId="poi-rain-24h" label={t('rain.last24Hours')} mm={l?.rain24h} rainClass={l?.class24h} />
        <Accumulation
          testId="poi-rain-today"
          label={t('rain.today')}
          mm={l?.today}
          detail={s ? t('rain.yesterday', { mm: formatWithUnit(s.yesterday, 'mm', 1) }) : undefined}
        />
        <Accumulation testId="poi-rain-7d" label={t('rain.lastSevenDays')} mm={s?.week} />
        <Accumulation
          testId="poi-rain-month"
          label={t('rain.thisMonth')}
          mm={s?.month}
          detail={s ? t('rain.rainDays', { count: s.rainDays }) : undefined}
        />
        <Accumulation
          testId="poi-rain-year"
          label={t('rain.thisYear')}
          mm={s?.year}
          detail={s?.maxDay ? t('rain.wettestDay', { date: s.maxDay.date.slice(5), mm: formatWithUnit(s.maxDay.mm, 'mm', 1) }) : undefined}
        />
      </div>
      {recent.data ? (
        <RecentRainChart data={recent.data} />
      ) : (
        // The chart's place, kept while the last 24 hours load: the cards below do not move when it comes.
        <div className="fw-poi-summary__chart fw-poi-rain-recent--pending" aria-busy="true" />
      )}
    </SummaryCard>
  );
}
