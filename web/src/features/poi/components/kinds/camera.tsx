import { Card, Empty, Image, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { KeyFigure, SummaryCard } from '@/components/summary-card';
import { formatDateTime, formatReportTime, formatValue, MISSING } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { imageSrc, useImages } from '../../api/get-images';
import { useRecentAmounts } from './use-recent-amounts';

/** The newest photos: the latest one large, the ones before it as thumbnails; all open in a viewer. */
export function ImagesCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const images = useImages(deviceId, 9);
  const list = images.data ?? [];
  const [latest, ...older] = list;
  return (
    <Card
      variant="borderless"
      title={t('camera.images')}
      className="fw-poi-section fw-poi-images"
      data-testid="poi-images"
      extra={latest ? <Typography.Text type="secondary">{t('camera.latestAt', { time: formatReportTime(latest.time) })}</Typography.Text> : null}
    >
      {images.isPending ? (
        // The latest picture's place, kept while the list loads: the cards below do not move when it comes.
        <div className="fw-poi-images__grid" aria-busy="true">
          <figure className="fw-poi-images__latest">
            <div className="fw-poi-images__placeholder" role="img" aria-label={t('camera.loading')} />
            <figcaption>&nbsp;</figcaption>
          </figure>
        </div>
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('camera.none')} />
      ) : (
        <Image.PreviewGroup>
          <div className="fw-poi-images__grid">
            <figure className="fw-poi-images__latest">
              <Image src={imageSrc(deviceId, latest.id)} alt={t('camera.imageAlt', { time: formatDateTime(latest.time) })} />
              <figcaption>{formatDateTime(latest.time)}</figcaption>
            </figure>
            <div className="fw-poi-images__older">
              {older.map((image) => (
                <figure key={image.id}>
                  <Image src={imageSrc(deviceId, image.id)} alt={t('camera.imageAlt', { time: formatDateTime(image.time) })} />
                  <figcaption>{formatReportTime(image.time)}</figcaption>
                </figure>
              ))}
            </div>
          </div>
        </Image.PreviewGroup>
      )}
    </Card>
  );
}

/** Insects caught in the last 24 hours, today and the last seven days. */
export function InsectSummary({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const now = useNow();
  const { amounts } = useRecentAmounts(deviceId, 'insectCount', now);
  const count = (value: number | null | undefined) => (value === null || value === undefined ? MISSING : formatValue(value, 0));
  return (
    <SummaryCard title={t('camera.counts')} testId="poi-insect-summary">
      <div className="fw-poi-figures">
        <KeyFigure testId="poi-insects-today" label={t('camera.today')} value={count(amounts?.today)} />
        <KeyFigure label={t('camera.last24Hours')} value={count(amounts?.last24Hours)} />
        <KeyFigure label={t('camera.lastSevenDays')} value={count(amounts?.lastSevenDays)} />
      </div>
    </SummaryCard>
  );
}

