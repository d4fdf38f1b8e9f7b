import { DotLoading, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { isApiError } from '@/lib/api-client';

/** A section loading: three dots, centred. */
export function Loading() {
  return (
    <div className="fw-mpoi-loading" data-testid="mpoi-loading">
      <DotLoading color="primary" />
    </div>
  );
}

/** The device could not be read: not found, or the server's reason. */
export function DeviceError({ error }: { error: unknown }) {
  const { t } = useTranslation('mobilePoi');
  if (isApiError(error) && (error.code === 1404 || error.status === 404)) {
    return <ErrorBlock status="empty" title={t('notFound.title')} description={t('notFound.description')} />;
  }
  return (
    <div className="fw-mpoi-section">
      <MobileServerError error={error} />
    </div>
  );
}
