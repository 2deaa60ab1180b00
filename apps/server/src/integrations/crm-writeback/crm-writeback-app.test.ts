import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MatchStore } from '../../matches/match-store.js';
import type { Renderer } from '../../templates/renderer.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { testDatabases } from '../../test/databases.js';
import { sentPartnerEnvelope } from '../../test/partner-envelope.js';
import { SalesforceStub } from '../../test/salesforce-stub.js';
import { createTestApp } from '../../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const RECORD_ID = 'a0B5g00000AppTestEAF';
const WRITEBACK = { status: 'Vertragsstatus__c', statusChangedAt: 'Vertragsstatus_geaendert_am__c' };

async function mappingFile(writeback: Record<string, string>): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'crm-writeback-app-')), 'mapping.json');
  await writeFile(file, JSON.stringify({ matchId: 'Name', fields: { kunde: 'Kunde__r.Name' }, writeback }));
  return file;
}

const salesforceEnv = (url: string, file: string) => ({
  CRM_KIND: 'salesforce',
  SALESFORCE_LOGIN_URL: url,
  SALESFORCE_CLIENT_ID: 'client-id',
  SALESFORCE_CLIENT_SECRET: 'client-secret',
  SALESFORCE_OBJECT: 'Match__c',
  SALESFORCE_ID_FIELD: 'Name',
  CRM_MAPPING_FILE: file,
});

describe.each(testDatabases())('the app with a Salesforce write-back on $name', (database) => {
  let db: Db;
  let stub: SalesforceStub;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    stub = await new SalesforceStub().start();
    stub.recordIds.set(match.matchId, RECORD_ID);
  });
  afterAll(async () => {
    await stub.stop();
    await db.destroy();
  });

  it('does not start when the mapping names a field Salesforce does not have, and names it', async () => {
    const file = await mappingFile({ ...WRITEBACK, signedAt: 'Unterschrieben_am__c' });
    const start = createTestApp(db, {
      env: salesforceEnv(stub.url, file),
      // The start fails before anything renders.
      renderer: { close: async () => {} } as unknown as Renderer,
    });
    await expect(start).rejects.toThrow(
      /writeback\.signedAt \("Unterschrieben_am__c"\): Match__c has no such field/,
    );
  });

  it('tells Salesforce of an envelope sent through the API, from the outbox after the commit', async () => {
    // The matches come from the database here: the write-back is what this test is about.
    const t = await createTestApp(db, {
      env: salesforceEnv(stub.url, await mappingFile(WRITEBACK)),
      demoStaff: true,
    });
    try {
      const berater = await t.signIn('berater@demo.local');
      await sentPartnerEnvelope(t, {
        token: berater,
        matchId: match.matchId,
        partner: { name: 'Paula Partner', email: 'paula.crm@partner.example' },
      });
      await vi.waitFor(() => expect(stub.patches).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect(stub.patches[0]).toEqual({
        object: 'Match__c',
        id: RECORD_ID,
        body: { Vertragsstatus__c: 'Versendet', Vertragsstatus_geaendert_am__c: expect.any(String) },
      });
    } finally {
      await t.app.close();
    }
  });
});
