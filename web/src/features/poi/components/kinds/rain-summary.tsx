import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/lib/format';
import { useEarlyWarning } from '../../api/analyses';
import { rainClass, warningLevelAt, WARNING_COLORS, WARNING_CRITERIA, type RainWindow, type WarningLevel } from '../../lib/rain';
import { useNow } from '../../lib/use-now';
import { formatValue } from '../../lib/values';
import { KeyFigure, SummaryCard } from './summary-card';
import { useRecentAmounts } from './use-recent-amounts';

/** The warning signal colours. */
export const WARNING_HEX: Record<Exclude<WarningLevel, 0>, string> = {
  1: '#1677ff',
  2: '#fadb14',
  3: '#fa8c16',
  4: '#f5222d',
};

export function WarningBadge({ level }: { level: WarningLevel }) {
  const { t } = useTranslation('poi');
  if (level === 0) return <span className="fw-poi-warning fw-poi-warning--none">{t('rain.warning.none')}</span>;
  return (
    <span
      className="fw-poi-warning"
      style={{ background: WARNING_HEX[level], color: level === 2 ? 'rgba(0,0,0,0.88)' : '#fff' }}
    >
      {t('rain.warning.level', { code: `0${level}`, color: t(`rain.warning.colors.${WARNING_COLORS[level]}`) })}
    </span>
  );
}

/** The national criteria, for the tooltip next to the warning. */
export function WarningCriteria() {
  const { t } = useTranslation('poi');
  return (
    <div>
      <div>{t('rain.warning.criteriaTitle')}</div>
      <ul className="fw-poi-criteria">
        {[...WARNING_CRITERIA].reverse().map(({ level, hours, mm }) => (
          <li key={level}>
            {t('rain.warning.criterion', { code: `0${level}`, color: t(`rain.warning.colors.${WARNING_COLORS[level]}`), hours, mm })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Accumulation({ label, mm, window, testId }: { label: string; mm: number | null; window?: RainWindow; testId: string }) {
  const { t } = useTranslation('poi');
  const kind = window ? rainClass(mm, window) : null;
  return (
    <KeyFigure
      testId={testId}
      label={label}
      value={mm === null ? MISSING : formatValue(mm, 1)}
      unit={mm === null ? undefined : 'mm'}
      detail={kind ? t(`rain.classes.${kind}`) : undefined}
    />
  );
}

/** Rain of the last hour, 12 and 24 hours, today and seven days, and the current warning level. */
export function RainSummary({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const { amounts } = useRecentAmounts(deviceId, 'rainfall', now);
  // The server's signal (docs/analyses.md) wins; the readings decide only until it answers.
  const warning = useEarlyWarning(deviceId);
  const serverLevel = warning.data?.current?.level;
  const level: WarningLevel =
    typeof serverLevel === 'number' ? (Math.max(0, Math.min(4, serverLevel)) as WarningLevel) : amounts?.recent ? warningLevelAt(amounts.recent, now) : 0;
  return (
    <SummaryCard
      title={t('rain.title')}
      testId="poi-rain-summary"
      extra={
        <Tooltip title={<WarningCriteria />}>
          <span data-testid="poi-rain-warning" className="fw-poi-help-wrap">
            <WarningBadge level={level} />
          </span>
        </Tooltip>
      }
    >
      <div className="fw-poi-figures">
        <Accumulation testId="poi-rain-1h" label={t('rain.lastHour')} mm={amounts?.lastHour ?? null} window="1h" />
        <Accumulation testId="poi-rain-12h" label={t('rain.last12Hours')} mm={amounts?.last12Hours ?? null} window="12h" />
        <Accumulation testId="poi-rain-24h" label={t('rain.last24Hours')} mm={amounts?.last24Hours ?? null} window="24h" />
        <Accumulation testId="poi-rain-today" label={t('rain.today')} mm={amounts?.today ?? null} />
        <Accumulation testId="poi-rain-7d" label={t('rain.lastSevenDays')} mm={amounts?.lastSevenDays ?? null} />
      </div>
    </SummaryCard>
  );
}
