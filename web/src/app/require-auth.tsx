import { Button } from 'antd';
import { LazyResult } from '@/components/lazy-result';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { useProfile } from '@/features/account/api/get-profile';
import { loginPath } from '@/config/paths';
import { errorMessage, isApiError } from '@/lib/api-client';
import { setFarmZone } from '@/lib/farm-time';

/**
 * Shows its routes only to a logged-in user; without a session it goes to the login page, which
 * comes back here afterwards.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const location = useLocation();
  const profile = useProfile();

  if (profile.isSuccess) {
    // Before any page renders a device time.
    setFarmZone(profile.data.timezone);
    return <Outlet />;
  }
  if (isApiError(profile.error) && profile.error.kind === 'session') {
    return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  }
  if (profile.isError) {
    return (
      <LazyResult
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
