import { Descriptions, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { KeyFigure } from '@/components/summary-card';
import { Panel } from '@/components/weather-days';
import { farmTime } from '@/lib/farm-time';
import { formatDateTime, formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { WARNING_HEX, warningTextColor } from '@/lib/rain-grades';
import { useInstallation, useLatestIdEvent } from '../api/get-latest-and-installation';

/** The latest rain event against the intensity-duration threshold (pluviometer/i-d). */
export function LatestIdPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useLatestIdEvent(deviceId);
  const d = q.data;
  const e = d?.event;
  return (
    <Panel loading={q.isPending} error={q.error} empty={!!d && !e} emptyText={t('pages.noEvent')} testId="poi-id-latest">
      {d && e && (
        <>
          <div className="fw-poi-figures">
            <KeyFigure label={t('pages.eventRain')} value={formatWithUnit(e.mm, 'mm', 1)} detail={t('pages.eventHours', { hours: formatValue(e.hours, 1) })} />
            <KeyFigure label={t('pages.eventIntensity')} value={formatWithUnit(e.intensity, 'mm/h', 2)} detail={t('pages.thresholdIntensity', { value: formatWithUnit(e.thresholdIntensity, 'mm/h', 2) })} />
            <KeyFigure label={t('pages.ratio')} value={`${formatValue(e.ratio * 100, 0)}%`} />
          </div>
          <Typography.Paragraph>
            <Tag color={e.exceeded ? 'red' : 'green'} data-testid="poi-id-latest-verdict">
              {e.exceeded ? t('pages.exceeded') : t('pages.below')}
            </Tag>
            {e.ongoing ? <Tag color="blue">{t('pages.ongoing')}</Tag> : null}
            <Typography.Text type="secondary">
              {formatDateTime(e.start)} – {formatDateTime(e.end)} · I = {formatValue(d.threshold.alpha, 2)} · D^-{formatValue(d.threshold.beta, 2)}
            </Typography.Text>
          </Typography.Paragraph>
        </>
      )}
    </Panel>
  );
}

/** Where and how the rain gauge is installed, and the criteria it warns by (pluviometer/installing). */
export function InstallationPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useInstallation(deviceId);
  const d = q.data;
  return (
    <Panel loading={q.isPending} error={q.error} empty={false} emptyText="" testId="poi-installing">
      {d && (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
            <Descriptions.Item label={t('pages.model')}>{d.model}</Descriptions.Item>
            <Descriptions.Item label="SN">{d.sn}</Descriptions.Item>
            <Descriptions.Item label={t('pages.location')}>{d.location || MISSING}</Descriptions.Item>
            <Descriptions.Item label={t('pages.coordinates')}>
              {d.lat === null || d.lng === null ? MISSING : `${formatValue(d.lat, 5)}, ${formatValue(d.lng, 5)}`}
              {d.altitude === null ? '' : ` · ${formatWithUnit(d.altitude, 'm', 0)}`}
            </Descriptions.Item>
            <Descriptions.Item label={t('pages.installed')}>
              {d.installTime === null ? MISSING : farmTime(d.installTime).format('YYYY-MM-DD')}
              {d.daysInstalled === null ? '' : ` · ${t('pages.days', { count: d.daysInstalled })}`}
            </Descriptions.Item>
            <Descriptions.Item label={t('pages.interval')}>{t('pages.minutes', { count: d.intervalMinutes })}</Descriptions.Item>
            <Descriptions.Item label={t('pages.lastReport')}>{formatDateTime(d.lastReport)}</Descriptions.Item>
            <Descriptions.Item label={t('pages.idThreshold')}>
              I = {formatValue(d.threshold.alpha, 2)} · D^-{formatValue(d.threshold.beta, 2)}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Paragraph style={{ marginTop: 12 }}>
            {d.criteria.map((c) => {
              const level = Math.max(1, Math.min(4, c.level)) as 1 | 2 | 3 | 4;
              return (
                <span key={c.code} className="fw-poi-warning" style={{ background: WARNING_HEX[level], color: warningTextColor(level), marginInlineEnd: 8 }}>
                  {t('pages.criterion', { code: c.code, color: t(`rain.warning.colors.${c.color}`), mm: c.mm, hours: c.hours })}
                </span>
              );
            })}
          </Typography.Paragraph>
        </>
      )}
    </Panel>
  );
}
