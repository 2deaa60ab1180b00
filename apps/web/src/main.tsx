import './lib/zod-jitless';
import '@mantine/core/styles.css';
import './app/focus.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAuthService, createUserManager } from '@/lib/auth/auth-service';
import { CoreProviders } from './app/core-providers';
import { preloadForPage } from './app/page-preload';
import { StartupErrorPage } from './app/pages';
import { createAppRouter } from './app/router';
import { setIdTokenSource } from './lib/id-token';
import { loadRuntimeConfig } from './lib/runtime-config';

// The tab opened on a document starts loading its first view at once (page-preload.ts).
preloadForPage(window.location.pathname);

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
        <CoreProviders config={config} auth={auth}>
          <RouterProvider router={createAppRouter(auth)} />
        </CoreProviders>
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
