import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { ConfigProvider as MobileConfigProvider, reduceMotion, restoreMotion } from 'antd-mobile';
import mobileEnUS from 'antd-mobile/es/locales/en-US';
import mobileZhCN from 'antd-mobile/es/locales/zh-CN';
import mobileZhTW from 'antd-mobile/es/locales/zh-TW';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { currentLanguage, type Language } from '@/lib/i18n';
import { MobileModeProvider } from '@/lib/mobile-mode';
import { antdTheme, ThemeModeProvider, useThemeMode } from '@/lib/theme';
import { ApiHandlersBridge } from './api-handlers-bridge';
import { ThemeVariables } from './theme-variables';

const ANTD_LOCALES = { zh_CN: zhCN, zh_TW: zhTW, en_US: enUS } satisfies Record<Language, unknown>;
const MOBILE_LOCALES = { zh_CN: mobileZhCN, zh_TW: mobileZhTW, en_US: mobileEnUS } satisfies Record<Language, unknown>;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Only a dropped connection is worth one more try; a server answer will not change.
        retry: (failureCount, error) => isApiError(error) && error.kind === 'network' && failureCount < 1,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

function UiProviders({ children }: { children: ReactNode }) {
  const { mode, reducedMotion } = useThemeMode();
  // Subscribes to language changes, so the component libraries switch with the app.
  useTranslation();
  const language = currentLanguage();
  const theme = useMemo(() => antdTheme(mode, reducedMotion), [mode, reducedMotion]);
  // antd-mobile's springs (popups, pull to refresh, swipe actions) stop animating the same way.
  useEffect(() => {
    if (reducedMotion) reduceMotion();
    else restoreMotion();
  }, [reducedMotion]);
  return (
    <ConfigProvider theme={theme} locale={ANTD_LOCALES[language]}>
      <MobileConfigProvider locale={MOBILE_LOCALES[language]}>
        <AntdApp className="fw-app">
          <ThemeVariables />
          {children}
        </AntdApp>
      </MobileConfigProvider>
    </ConfigProvider>
  );
}

interface AppProviderProps {
  children: ReactNode;
  /** Forces phone or desktop mode instead of detecting it (tests). */
  mobile?: boolean;
  queryClient?: QueryClient;
}

export function AppProvider({ children, mobile, queryClient }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ThemeModeProvider>
      <MobileModeProvider value={mobile}>
        <UiProviders>
          <QueryClientProvider client={client}>
            <ApiHandlersBridge />
            {children}
          </QueryClientProvider>
        </UiProviders>
      </MobileModeProvider>
    </ThemeModeProvider>
  );
}
