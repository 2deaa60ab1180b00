import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SignatureConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The scraper's token of these apps: METRICS_TOKEN takes 16 characters at least. */
export const EVERY_OPERATION_METRICS_TOKEN = 'scraper-token-of-every-operation';

/** DocuSign as configured, without a key that could reach it: the tests create no envelope there. */
export const UNREACHABLE_DOCUSIGN: SignatureConfig = {
  kind: 'docusign',
  linkValidDays: 14,
  reminderEveryDays: 3,
  integrationKey: 'ik',
  userId: 'user',
  accountId: 'account',
  privateKey: 'unused: no envelope is created here',
  authUrl: 'https://account-d.docusign.invalid',
  basePath: undefined,
  connectHmacKey: 'connect-key',
  templates: {},
};

/** A web build of two files: index.html and one hashed asset. */
export function smallWebBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vg-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Vertragsgenerator</title>');
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  return dir;
}

/**
 * An app with every route its configuration can switch on: the metrics, the token exchange of an
 * issuer with a client secret, a web build, the demo staff; with built-in signing, or with DocuSign,
 * which adds its webhook. The two together serve every operation of the API.
 */
export function everyOperationApp(db: Db, { docusign = false } = {}): Promise<TestApp> {
  return createTestApp(db, {
    demoStaff: true,
    env: {
      WEB_DIST_DIR: smallWebBuild(),
      METRICS_TOKEN: EVERY_OPERATION_METRICS_TOKEN,
      OIDC_CLIENT_SECRET: 'client-secret-of-every-operation',
      // Each API client here asks every operation in well under a minute: more than the default allows.
      API_CLIENT_REQUESTS_PER_MINUTE: '10000',
    },
    // The issuer is never asked: a token exchange that got this far would answer 503.
    discoverIssuer: async () => {
      throw new Error('the test issuer is not reachable');
    },
    ...(docusign ? { signature: UNREACHABLE_DOCUSIGN } : {}),
  });
}
