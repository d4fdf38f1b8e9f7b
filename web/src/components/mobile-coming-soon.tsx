import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/**
 * Stands in for a phone screen that is being upgraded. With a title (a section inside a screen)
 * the notice goes under it; without one the notice is the headline.
 */
export function MobileComingSoon({ title }: { title?: string }) {
  const { t } = useTranslation();
  return (
    <div className="fw-mobile-coming-soon">
      <ErrorBlock status="busy" title={title ?? t('comingSoon')} description={title ? t('comingSoon') : ''} />
    </div>
  );
}
