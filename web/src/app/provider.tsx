import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { antdLocale, currentLanguage } from '@/lib/i18n';
import { MobileModeProvider } from '@/lib/mobile-mode';
import { antdTheme, ThemeModeProvider, useThemeMode } from '@/lib/theme';
import { ApiHandlersBridge } from './api-handlers-bridge';
import { ThemeVariables } from './theme-variables';


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
  const theme = useMemo(() => antdTheme(mode, reducedMotion), [mode, reducedMotion]);
  const locale = antdLocale(currentLanguage());
  return (
    <ConfigProvider theme={theme} locale={locale}>
      <AntdApp className="fw-app">
        <ThemeVariables />
        {children}
      </AntdApp>
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
