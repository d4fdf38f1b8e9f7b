import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { FullPageMessage } from '@/components/full-page-message';

/** Shown when a screen fails to render or its code fails to load (e.g. after a new release). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <FullPageMessage
      code="500"
      title={t('crash.title')}
      description={t('crash.description')}
      action={
        <button type="button" className="fw-button fw-button--primary" onClick={() => window.location.reload()}>
          {t('crash.reload')}
        </button>
      }
    />
  );
}
