import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// A port per run, so that two checkouts can run their tests at once; workers inherit it from the runner.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 20_000));
const PORT = Number(process.env.E2E_PORT);
export const BASE_URL = `http://localhost:${PORT}`;
/** The server's data folder, fresh for every run; tests read written mail from its mail/ folder. */
export const E2E_DATA_DIR = join(tmpdir(), `vg-e2e-data-${PORT}`);
// The config is loaded by the runner and again by each worker; only the runner starts afresh.
if (!process.env.TEST_WORKER_INDEX) rmSync(E2E_DATA_DIR, { recursive: true, force: true });

/**
 * Browser tests against the real built app (`npm run build` first) with the embedded identity provider
 * and a fresh embedded database, in Debian's Chromium (no browser download works here).
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: BASE_URL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node apps/server/dist/main.js',
    url: `${BASE_URL}/backend/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000',
    },
  },
});
