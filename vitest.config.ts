import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages are consumed from their TypeScript sources in tests ("source" export condition),
// so no build step is needed before `vitest`.
const resolve = { conditions: ['source', ...defaultClientConditions] };
const ssr = { resolve: { conditions: ['source', ...defaultServerConditions] } };

export default defineConfig({
  test: {
    // Many server tests wait on child processes, sockets and database threads rather than the CPU: four
    // files at once finish the suite in about two thirds of the time on two cores.
    maxWorkers: 4,
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
          // Files share a worker's loaded modules instead of importing the server afresh each: the import
          // was most of a route test's time. Server modules keep no state between apps, and the files that
          // fake the clock restore it after each test.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { ...resolve, alias: { '@': `${import.meta.dirname}/apps/web/src` } },
        ssr,
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          // A form test types and clicks through a whole form: 2–3 s alone, twice that beside three others.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
