import { MantineProvider } from '@mantine/core';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { AuthServiceProvider } from '@/lib/auth/auth-context';
import type { AuthService } from '@/lib/auth/auth-service';
import { RuntimeConfigProvider } from '@/lib/runtime-config';
import { cssVariablesResolver, theme } from './theme';

export interface CoreProvidersProps {
  config: RuntimeConfig;
  auth: AuthService;
  /** 'test' turns off Mantine's transitions and portals. */
  env?: 'default' | 'test';
  children: ReactNode;
}

/**
 * What every page needs, /login too: the theme, the runtime configuration and the sign-in. The query
 * cache, notifications and dialogs come with the pages that use them (components/page-providers.tsx).
 */
export function CoreProviders({ config, auth, env = 'default', children }: CoreProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
      <RuntimeConfigProvider config={config}>
        <AuthServiceProvider auth={auth}>{children}</AuthServiceProvider>
      </RuntimeConfigProvider>
    </MantineProvider>
  );
}
