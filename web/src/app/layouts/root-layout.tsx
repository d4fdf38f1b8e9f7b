import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { WeChatBridge } from '@/features/wechat/wechat-bridge';
import { NavigationProgress } from '../navigation-progress';
import { usePageTitle } from '../route-handle';

export function RootLayout() {
  const { t } = useTranslation();
  const title = usePageTitle();
  const appName = t('appName');

  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);

  return (
    <>
      <NavigationProgress />
      <WeChatBridge />
      <Outlet />
    </>
  );
}
