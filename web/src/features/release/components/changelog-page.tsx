import { Card, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useLang } from '@/lib/use-lang';
import { useVersionHistory } from '../api/version-history';

/** /console/release/log: the console's versions, newest first, and what each brought. */
export function ChangelogPage() {
  const { t } = useTranslation('release');
  const lang = useLang();
  const history = useVersionHistory(lang);
  return (
    <div className="fw-page" data-testid="changelog">
      <Card variant="borderless" title={t('title')}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <ServerErrorAlert error={history.error} />
        {history.isPending ? (
          <PageLoading />
        ) : (
          <Timeline
            items={(history.data ?? []).map((v, i) => ({
              color: i === 0 ? 'blue' : 'gray',
              children: (
                <div className="fw-changelog__version" data-testid="changelog-version">
                  <Typography.Title level={5}>
                    {v.version} {i === 0 && <Tag color="blue">{t('latest')}</Tag>}
                  </Typography.Title>
                  <Typography.Text type="secondary">{v.date}</Typography.Text>
                  <ul>
                    {v.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                </div>
              ),
            }))}
          />
        )}
      </Card>
    </div>
  );
}
