import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages are consumed from their TypeScript sources in tests ("source" export condition),
// so no build step is needed before `vitest`.
const resolve = { conditions: ['source', ...defaultClientConditions] };
const ssr = { resolve: { conditions: ['source', ...defaultServerConditions] } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr,
        test: { name: 'domain', root: 'packages/domain', environment: 'node' },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          globalSetup: ['src/test/postgres-global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
    ],
  },
});
