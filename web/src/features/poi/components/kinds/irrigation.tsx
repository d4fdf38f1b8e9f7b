import { useTranslation } from 'react-i18next';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatValue, MISSING } from '@/lib/format';
import { latestValue, type ReadingIndex } from '@/lib/telemetry/readings';
import { useNow } from '@/lib/use-now';
import { useRecentAmounts } from './use-recent-amounts';

/** Whether the valve is open, how much is flowing and how much water went out today and this week. */
export function IrrigationSummary({ deviceId, readings }: { deviceId: number; readings: ReadingIndex }) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const { amounts } = useRecentAmounts(deviceId, 'waterVolume', now);
  const valve = latestValue(readings, 'valveState');
  const flow = latestValue(readings, 'flowRate');
  const pressure = latestValue(readings, 'pipePressure');
  const volume = (value: number | null | undefined) => (value === null || value === undefined ? MISSING : formatValue(value, 2));
  return (
    <SummaryCard title={t('irrigation.title')} testId="poi-irrigation-summary">
      <div className="fw-poi-figures">
        <KeyFigure
          testId="poi-valve"
          label={t('irrigation.valve')}
          value={valve === null ? MISSING : valve >= 1 ? t('states.open') : t('states.closed')}
          accent={valve === null ? undefined : valve >= 1 ? '#52c41a' : '#8c8c8c'}
        />
        <KeyFigure label={t('irrigation.flow')} value={formatValue(flow, 2)} unit={flow === null ? undefined : 'm³/h'} />
        <KeyFigure label={t('irrigation.pressure')} value={formatValue(pressure, 2)} unit={pressure === null ? undefined : 'MPa'} />
        <KeyFigure label={t('irrigation.today')} value={volume(amounts?.today)} unit={amounts ? 'm³' : undefined} />
        <KeyFigure label={t('irrigation.lastSevenDays')} value={volume(amounts?.lastSevenDays)} unit={amounts?.lastSevenDays != null ? 'm³' : undefined} />
      </div>
    </SummaryCard>
  );
}
