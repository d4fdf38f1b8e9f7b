import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageMessage } from '@/components/full-page-message';
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
      <FullPageMessage
        title={t('loadFailed')}
        description={errorMessage(profile.error)}
        action={
          <button
            type="button"
            className="fw-button fw-button--primary"
            onClick={() => void profile.refetch()}
            disabled={profile.isFetching}
            aria-busy={profile.isFetching}
          >
            {t('actions.retry')}
          </button>
        }
      />
    );
  }
  return <PageLoading />;
}
