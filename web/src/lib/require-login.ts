import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { loginPath } from '@/config/paths';
import { useNotice } from './notice';

/**
 * Wraps an action that needs an account: when nobody is logged in it says 'Please log in first'
 * and opens the login page, which comes back here afterwards.
 */
export function useRequireLogin(loggedIn: boolean) {
  const notice = useNotice();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation('errors');

  return useCallback(
    <Args extends unknown[]>(action: (...args: Args) => void) =>
      (...args: Args) => {
        if (loggedIn) {
          action(...args);
          return;
        }
        notice.info(t('pleaseLogIn'));
        void navigate(loginPath(`${location.pathname}${location.search}`));
      },
    [loggedIn, notice, navigate, location.pathname, location.search, t],
  );
}
