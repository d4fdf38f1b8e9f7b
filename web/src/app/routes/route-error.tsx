import { Button } from 'antd';
import { LazyResult } from '@/components/lazy-result';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Shown when a screen fails to render or its code fails to load (e.g. after a new release). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div className="fw-fullpage">
      <LazyResult
        status="500"
        title={t('crash.title')}
        subTitle={t('crash.description')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('crash.reload')}
          </Button>
        }
      />
    </div>
  );
}
