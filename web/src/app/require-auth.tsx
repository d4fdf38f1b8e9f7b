import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { useProfile } from '@/features/account/api/get-profile';
import { errorMessage, isApiError } from '@/lib/api-client';

/**
 * Shows its routes only to a logged-in user. Without a session the API client has already sent the
 * browser to the login page the server named, so this keeps showing the spinner meanwhile.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const profile = useProfile();

  if (profile.isSuccess) return <Outlet />;
  const leaving = isApiError(profile.error) && profile.error.kind === 'session';
  if (profile.isError && !leaving) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        subTitle={errorMessage(profile.error)}
        extra={
          <Button type="primary" onClick={() => void profile.refetch()} loading={profile.isFetching}>
            {t('actions.retry')}
          </Button>
        }
      />
    );
  }
  return <PageLoading />;
}
