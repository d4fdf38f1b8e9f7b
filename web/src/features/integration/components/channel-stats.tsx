import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelativeTime, MISSING } from '@/lib/format';
import { formatDuration, formatRate, rateTone } from '../format';
import type { Channel } from '../types';

/** When the channel last sent anything, relative, with the exact time on hover. */
export function LastActivity({ time }: { time: number | null }) {
  const { t } = useTranslation('integration');
  if (time === null || time === undefined) return <Typography.Text type="secondary">{t('channels.never')}</Typography.Text>;
  return (
    <Tooltip title={formatDateTime(time)}>
      <span>{formatRelativeTime(time)}</span>
    </Tooltip>
  );
}

/** Median and 95th percentile response time of successful deliveries. */
export function Delay({ channel }: { channel: Pick<Channel, 'p50' | 'p95'> }) {
  const { t } = useTranslation('integration');
  if (channel.p50 === null || channel.p50 === undefined) return <Typography.Text type="secondary">{MISSING}</Typography.Text>;
  return (
    <div className="fw-push-cell">
      <span>{t('channels.p50', { value: formatDuration(channel.p50) })}</span>
      <Typography.Text type="secondary" className="fw-push-cell__secondary">
        {t('channels.p95', { value: formatDuration(channel.p95) })}
      </Typography.Text>
    </div>
  );
}

/** The share of attempts that were answered 2xx, with what is failing or waiting. */
export function SuccessRate({ channel }: { channel: Pick<Channel, 'successRate' | 'attempted' | 'failed' | 'pending'> }) {
  const { t } = useTranslation('integration');
  if (channel.successRate === null || channel.successRate === undefined) {
    return (
      <div className="fw-push-cell">
        <Typography.Text type="secondary">{MISSING}</Typography.Text>
        {channel.pending > 0 && (
          <Typography.Text type="secondary" className="fw-push-cell__secondary">
            {t('channels.pendingCount', { count: channel.pending })}
          </Typography.Text>
        )}
      </div>
    );
  }
  return (
    <div className="fw-push-cell">
      <Typography.Text type={rateTone(channel.successRate)} strong data-testid="success-rate">
        {formatRate(channel.successRate)}
      </Typography.Text>
      <Typography.Text type="secondary" className="fw-push-cell__secondary">
        {t('channels.attempted', { count: channel.attempted })}
        {channel.failed > 0 && ` · ${t('channels.failedCount', { count: channel.failed })}`}
        {channel.pending > 0 && ` · ${t('channels.pendingCount', { count: channel.pending })}`}
      </Typography.Text>
    </div>
  );
}
