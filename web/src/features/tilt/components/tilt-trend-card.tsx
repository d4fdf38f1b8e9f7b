import { Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatValue, MISSING } from '@/lib/format';
import { useLang } from '@/lib/use-lang';
import { useTiltTrend } from '../api/get-tilt-trend';
import { farmTime } from '@/lib/farm-time';

function signed(value: number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const text = formatValue(value);
  return value > 0 && text !== '0' ? `+${text}` : text;
}

/** The server's 30-day tilt trend (/apis/poi/shan/trend): rate per day and cumulative change of each axis. */
export function TiltTrendCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const query = useTiltTrend(deviceId, lang);
  const data = query.data;
  return (
    <SummaryCard title={t('tiltTrend.title')} testId="poi-tilt-trend">
      {query.error ? (
        <ServerErrorAlert error={query.error} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="fw-poi-figures">
            {data.series.map((s) => (
              <KeyFigure
                key={s.param}
                label={s.name}
                value={s.trend ? signed(s.trend.ratePerDay) : MISSING}
                unit={s.trend ? `${s.unit}/${t('tiltTrend.day')}` : undefined}
                detail={
                  s.trend
                    ? t('tiltTrend.detail', { cumulative: signed(s.trend.cumulative), unit: s.unit, r2: formatValue(s.trend.r2) })
                    : t('tiltTrend.tooFew')
                }
              />
            ))}
          </div>
          <Typography.Paragraph type="secondary" className="fw-poi-analysis__criteria">
            {t('tiltTrend.hint', { begin: farmTime(data.begin).format('YYYY-MM-DD'), end: farmTime(data.end - 1).format('YYYY-MM-DD') })}
          </Typography.Paragraph>
        </>
      )}
    </SummaryCard>
  );
}
