import { useTranslation } from 'react-i18next';

/** A page's content on its way: drawn without antd, so it shows before antd has loaded. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="fw-page-loading" role="status" aria-live="polite">
      <span className="fw-spinner" aria-hidden="true" />
      <span className="fw-page-loading__text">{t('loading')}</span>
    </div>
  );
}
