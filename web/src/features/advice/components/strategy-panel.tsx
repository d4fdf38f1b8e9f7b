import { WarningOutlined } from '@ant-design/icons';
import { Alert, Card, Empty, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { farmTime } from '@/lib/farm-time';
import { formatValue } from '@/lib/format';
import type { Strategy } from '../types';

/** The season plan: the crop's stages on a timeline (the current one marked), the irrigation strategy and the risks ahead. */
export function StrategyPanel({ strategy, loading, error }: { strategy: Strategy | undefined; loading: boolean; error?: ReactNode }) {
  const { t } = useTranslation('advice');
  const s = strategy;
  const crop = s?.crop;
  return (
    <Card variant="borderless" loading={loading} title={t('strategy.title')} data-testid="advice-strategy">
      {error}
      {s && (
        <div className="fw-strategy">
          {crop && (
            <Typography.Paragraph className="fw-strategy__crop" data-testid="advice-strategy-crop">
              <b>{crop.cropName}</b>
              {crop.variety ? ` · ${crop.variety}` : ''} · {t('strategy.sown', { day: farmTime(crop.sown).format('YYYY-MM-DD') })} · {t('strategy.dayOf', { day: crop.dayOfSeason })}
            </Typography.Paragraph>
          )}
          {s.missing.map((text) => (
            <Alert key={text} type="info" showIcon title={text} className="fw-strategy__missing" />
          ))}
          <div className="fw-strategy__columns">
            <div>
              <Typography.Text strong>{t('strategy.stages')}</Typography.Text>
              {s.stages.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('strategy.noStages')} />
              ) : (
                <Timeline
                  className="fw-strategy__timeline"
                  items={s.stages.map((stage) => ({
                    color: stage.current ? 'blue' : 'gray',
                    content: (
                      <div className={stage.current ? 'fw-stage fw-stage--current' : 'fw-stage'} data-testid="advice-stage" data-current={stage.current} data-stage={stage.stage}>
                        <div>
                          <b>{stage.name}</b> {stage.current && <Tag color="blue">{t('strategy.now')}</Tag>}
                        </div>
                        <Typography.Text type="secondary">
                          {t('strategy.stageSpan', {
                            from: stage.from,
                            to: stage.to,
                            days: stage.days,
                            kc: stage.kcFrom === stage.kcTo ? formatValue(stage.kcFrom, 2) : `${formatValue(stage.kcFrom, 2)} → ${formatValue(stage.kcTo, 2)}`,
                          })}
                        </Typography.Text>
                        <div className="fw-stage__advice">{stage.advice}</div>
                      </div>
                    ),
                  }))}
                />
              )}
            </div>
            <div>
              <Typography.Text strong>{t('strategy.irrigation')}</Typography.Text>
              {s.irrigation.length === 0 ? (
                <Typography.Paragraph type="secondary">{t('strategy.noIrrigation')}</Typography.Paragraph>
              ) : (
                <ul className="fw-strategy__list" data-testid="advice-strategy-irrigation">
                  {s.irrigation.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              )}
              <Typography.Text strong>{t('strategy.risks')}</Typography.Text>
              {s.risks.length === 0 ? (
                <Typography.Paragraph type="secondary">{t('strategy.noRisks')}</Typography.Paragraph>
              ) : (
                <ul className="fw-strategy__list fw-strategy__risks" data-testid="advice-strategy-risks">
                  {s.risks.map((line) => (
                    <li key={line}>
                      <WarningOutlined /> {line}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        </div>
      )}
    </Card>
  );
}
