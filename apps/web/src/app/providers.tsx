import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import { type ReactNode, useState } from 'react';
import { AuthServiceProvider } from '@/lib/auth/auth-context';
import type { AuthService } from '@/lib/auth/auth-service';
import { RuntimeConfigProvider } from '@/lib/runtime-config';
import { cssVariablesResolver, theme } from './theme';

export interface AppProvidersProps {
  config: RuntimeConfig;
  auth: AuthService;
  /** The app's one query cache; main.tsx makes it before the shell to fill it early (page-preload.ts). */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine's transitions and portals. */
  env?: 'default' | 'test';
  children: ReactNode;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A failed call is answered by the UI; a silent retry would only delay that answer.
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

export function AppProviders({
  config,
  auth,
  queryClient: given,
  env = 'default',
  children,
}: AppProvidersProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RuntimeConfigProvider config={config}>
          <AuthServiceProvider auth={auth}>
            {/* Dialogs that plain functions open (`modals.openConfirmModal`) render here. */}
            <ModalsProvider>{children}</ModalsProvider>
          </AuthServiceProvider>
        </RuntimeConfigProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
