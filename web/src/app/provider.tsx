import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/api-client';
import { MobileModeProvider } from '@/lib/mobile-mode';
import { ThemeModeProvider } from '@/lib/theme';
import { ApiHandlersBridge } from './api-handlers-bridge';


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
        <QueryClientProvider client={client}>
          <ApiHandlersBridge />
          {children}
        </QueryClientProvider>
      </MobileModeProvider>
    </ThemeModeProvider>
  );
}
