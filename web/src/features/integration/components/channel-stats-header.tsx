import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDuration, formatRate, rateTone } from '../format';
import type { Channel } from '../types';
import { LastActivity } from './channel-stats';

/** One channel's figures over the log's window, above its log. */
export function ChannelStatsHeader({ channel }: { channel: Channel }) {
  const { t } = useTranslation('integration');
  const tone = rateTone(channel.successRate);
  return (
    <Card variant="borderless" className="fw-push-stats" data-testid="channel-stats">
      <Typography.Text type="secondary" className="fw-push-stats__target" ellipsis={{ tooltip: channel.url }}>
        {t('log.statsTarget', { url: channel.url })}
        {!channel.enabled && ` · ${t('log.statsDisabled')}`}
      </Typography.Text>
      <Row gutter={[24, 12]}>
        <Col xs={12} md={6}>
          <Statistic title={t('channels.columns.lastActivity')} valueRender={() => <LastActivity time={channel.lastActivity} />} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('log.statsDelay')}
            value={channel.p50 === null ? '--' : `${formatDuration(channel.p50)} / ${formatDuration(channel.p95)}`}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('channels.columns.rate')}
            value={formatRate(channel.successRate)}
            styles={{ content: { color: tone === 'danger' ? 'var(--fw-error-text)' : undefined } }}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('log.statsCounts')}
            value={t('log.statsCountsValue', { attempted: channel.attempted, failed: channel.failed, pending: channel.pending })}
          />
        </Col>
      </Row>
    </Card>
  );
}
