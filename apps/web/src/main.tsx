import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/focus.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { z } from 'zod';
import { createAuthService, createUserManager } from '@/lib/auth/auth-service';
import { preloadForPage } from './app/page-preload';
import { StartupErrorPage } from './app/pages';
import { AppProviders, createQueryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { setIdTokenSource } from './lib/api';
import { loadRuntimeConfig } from './lib/runtime-config';

// Under the server's CSP (no 'unsafe-eval') zod's probe for `new Function` would raise a CSP violation report.
z.config({ jitless: true });

const queryClient = createQueryClient();
preloadForPage(window.location, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');
const root = createRoot(container);

loadRuntimeConfig().then(
  (config) => {
    const auth = createAuthService(createUserManager(config.oidc, window.location.origin), Date.now, {
      driveAccess: config.editor === 'google',
    });
    setIdTokenSource(() => auth.currentIdToken());
    root.render(
      <StrictMode>
        <AppProviders config={config} auth={auth} queryClient={queryClient}>
          <RouterProvider router={createAppRouter(auth)} />
        </AppProviders>
      </StrictMode>,
    );
  },
  (error: unknown) => {
    console.error('Loading /backend/config failed', error);
    root.render(
      <MantineProvider>
        <StartupErrorPage />
      </MantineProvider>,
    );
  },
);
