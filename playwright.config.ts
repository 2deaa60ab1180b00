import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// A port per run, so that two checkouts can run their tests at once; workers inherit it from the runner.
// The run's ports (PORT to PORT + 7) stay below 32768, where Linux starts handing out the ephemeral ports
// of outgoing connections: a fake listening on a port a browser's connection holds fails with EADDRINUSE.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 12_000));
const PORT = Number(process.env.E2E_PORT);

/**
 * The suite runs in lanes at once, one Playwright worker each, and each lane has an app server and a
 * data folder of its own: the tests change what every user sees (the approval rules, published templates,
 * erased people, the mail folder), so two of them must never share a server. One lane alone leaves a core
 * idle for a third of the run; two finish the suite in about two thirds of its time
 * (docs/decisions.md, "What the test run costs"). `E2E_LANES=1` runs it in one.
 */
const LANES = Number(process.env.E2E_LANES ?? 2);
/** The lane of this worker process (Playwright's parallel index); the runner itself counts as lane 0. */
const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const laneBaseUrl = (index: number) => `http://localhost:${index === 0 ? PORT : PORT + 6 + index}`;
const laneDataDir = (index: number) =>
  join(tmpdir(), `vg-e2e-data-${PORT}${index === 0 ? '' : `-lane${index}`}`);
/** This lane's app server. */
export const BASE_URL = laneBaseUrl(lane);
/** This lane's data folder, fresh for every run; tests read written mail from its mail/ folder. */
export const E2E_DATA_DIR = laneDataDir(lane);
/** A second server with Google Docs as editor (e2e/google-drive.spec.ts), with a data folder of its own. */
export const GOOGLE_BASE_URL = `http://localhost:${PORT + 1}`;
const GOOGLE_DATA_DIR = join(tmpdir(), `vg-e2e-data-${PORT}-google`);
/** Where that server's browser finds Drive: the fake the spec starts (e2e/drive-fake.ts). */
export const DRIVE_FAKE_PORT = PORT + 2;
/** The lanes' timestamp authority (e2e/timestamp-authority.ts); its CA at `/ca.pem`. */
export const TSA_BASE_URL = `http://127.0.0.1:${PORT + 3}`;
/** A third server whose matches come from Salesforce and go back to it (e2e/salesforce-writeback.spec.ts). */
export const SALESFORCE_APP_BASE_URL = `http://localhost:${PORT + 6}`;
/** That server's data folder: its own mail folder, read by the spec. */
export const SALESFORCE_DATA_DIR = join(tmpdir(), `vg-e2e-data-${PORT}-salesforce`);
/** The Salesforce stub (e2e/salesforce-stub-server.ts) and its `GET /state` of what it received. */
const SALESFORCE_STUB_PORT = PORT + 4;
export const SALESFORCE_STUB_STATE_URL = `http://127.0.0.1:${PORT + 5}/state`;
/** An app server of the run, as e2e/app-servers.ts starts it: its address, data folder and settings. */
export interface AppServer {
  baseUrl: string;
  dataDir: string;
  env: Record<string, string>;
}

function appServer(baseUrl: string, dataDir: string, env: Record<string, string> = {}): AppServer {
  return {
    baseUrl,
    dataDir,
    env: {
      PORT: new URL(baseUrl).port,
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000',
      ...env,
    },
  };
}

/**
 * The app servers, started side by side before the first test (e2e/app-servers.ts) once the timestamp
 * authority and the Salesforce stub of `webServer` answer.
 */
export const APP_SERVERS: AppServer[] = [
  // A lane's server seals B-LTA with the test TSA, as a production server with TSA_URL, and sends
  // webhooks to the receiver e2e/integrations.spec.ts starts on loopback.
  ...Array.from({ length: LANES }, (_, index) =>
    appServer(laneBaseUrl(index), laneDataDir(index), {
      TSA_URL: `${TSA_BASE_URL}/tsa`,
      TSA_TIMEOUT_SECONDS: '5',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
  ),
  appServer(GOOGLE_BASE_URL, GOOGLE_DATA_DIR, {
    DOCUMENT_EDITOR: 'google',
    GOOGLE_DRIVE_API_URL: `http://127.0.0.1:${DRIVE_FAKE_PORT}`,
  }),
  appServer(SALESFORCE_APP_BASE_URL, SALESFORCE_DATA_DIR, {
    CRM_KIND: 'salesforce',
    SALESFORCE_LOGIN_URL: `http://127.0.0.1:${SALESFORCE_STUB_PORT}`,
    SALESFORCE_CLIENT_ID: 'e2e-client-id',
    SALESFORCE_CLIENT_SECRET: 'e2e-client-secret',
    SALESFORCE_OBJECT: 'Match__c',
    SALESFORCE_ID_FIELD: 'Name',
    // The preset's fields and a write-back of status, its time, the day of signing and the sealed PDF.
    CRM_MAPPING_FILE: 'e2e/salesforce-mapping.json',
    // Webhooks to the receiver e2e/salesforce-writeback.spec.ts starts on loopback.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  }),
];

/**
 * Debian's build of Chromium's headless shell, which is also what Playwright itself runs headless tests
 * in: the same engine without the desktop browser around the pages. The suite takes about a sixth less
 * time in it than in the full `chromium` on two cores (docs/decisions.md, "What the test run costs").
 */
const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Browser tests against the real built app (`npm run build` first) with the embedded identity provider
 * and a fresh embedded database, in Debian's Chromium (no browser download works here).
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: LANES,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: BASE_URL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // A trace records every action of every test (snapshots, screencast), failing or not: about a fifth
    // of the suite's time (keyboard.spec 56 s with, 46 s without). CI keeps only its log, so it records
    // none; locally a failure keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || CHROMIUM_HEADLESS_SHELL,
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
  webServer: [
    {
      command: `node --conditions=source --import tsx e2e/timestamp-authority.ts ${PORT + 3}`,
      url: `${TSA_BASE_URL}/ca.pem`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    // Its app server asks Salesforce for the written fields at start: the entries of `webServer` answer
    // before the global setup starts the app servers.
    {
      command: `node --conditions=source --import tsx e2e/salesforce-stub-server.ts ${SALESFORCE_STUB_PORT} ${PORT + 5}`,
      url: SALESFORCE_STUB_STATE_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
  globalSetup: './e2e/app-servers.ts',
});
