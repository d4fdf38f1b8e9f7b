import { App as AntdApp, ConfigProvider } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { antdTheme } from '@/lib/antd-theme';
import { antdLocale, currentLanguage } from '@/lib/i18n';
import { useThemeMode } from '@/lib/theme';
import { setDesktopDialog } from './api-handlers-bridge';

/** Hands antd's themed dialog to the API client's fatal-error handler while antd is on the page. */
function DesktopDialog() {
  const { modal } = AntdApp.useApp();
  useEffect(() => {
    setDesktopDialog((options) => modal.error(options));
    return () => setDesktopDialog(null);
  }, [modal]);
  return null;
}

/** antd's theme, texts and App context (message, modal, notification) for what is inside. */
export function AntdProviders({ children }: { children: ReactNode }) {
  const { mode, reducedMotion } = useThemeMode();
  // Subscribes to language changes, so antd's own texts switch with the app.
  useTranslation();
  const theme = useMemo(() => antdTheme(mode, reducedMotion), [mode, reducedMotion]);
  return (
    <ConfigProvider theme={theme} locale={antdLocale(currentLanguage())}>
      <AntdApp>
        <DesktopDialog />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

/**
 * The routes drawn with antd (the desktop console, share links): antd loads with the first of
 * them, not with the login page or the phone screens.
 */
export function AntdShell() {
  return (
    <AntdProviders>
      <Outlet />
    </AntdProviders>
  );
}
