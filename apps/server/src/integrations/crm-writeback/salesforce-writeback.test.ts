import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { parseCrmMapping } from '../../matches/crm/mapping.js';
import { SalesforceCrmClient } from '../../matches/crm/salesforce-crm-client.js';
import { Metrics } from '../../operations/metrics.js';
import { crmEnvelope, crmEventSink } from '../../test/crm-writeback-fixture.js';
import { testDatabases } from '../../test/databases.js';
import { SalesforceStub } from '../../test/salesforce-stub.js';
import type { AppDependencies } from '../../wiring/app-context.js';
import { createCrmWriteback } from '../../wiring/crm-writeback.js';
import { CrmWritebackOutbox } from './crm-writeback-outbox.js';
import { SalesforceWriteback } from './salesforce-writeback.js';

const RECORD_ID = 'a0B5g00000XyZabEAF';
const WRITEBACK = {
  status: 'Vertragsstatus__c',
  statusChangedAt: 'Vertragsstatus_geaendert_am__c',
  signedAt: 'Vertrag_unterschrieben_am__c',
};
const MAPPING = { matchId: 'Name', fields: { kunde: 'Kunde__r.Name' }, writeback: WRITEBACK };
const PDF = Buffer.from('%PDF-1.7\n% versiegelter Vertrag PL-4711\n%%EOF\n');
const quiet = { warn: () => {}, error: () => {}, info: () => {} };
const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000);

const salesforceConfig = (url: string, mappingFile: string) =>
  ({
    kind: 'salesforce',
    mappingFile,
    timeoutMs: 2_000,
    retries: 0,
    cacheSeconds: 0,
    loginUrl: url,
    clientId: 'client-id',
    clientSecret: 'client-secret',
    object: 'Match__c',
    idField: 'Name',
    apiVersion: '62.0',
  }) as const;

describe.each(testDatabases())('Salesforce write-back on $name', (database) => {
  let db: Db;
  let stub: SalesforceStub;

  const outbox = () => {
    const mapping = parseCrmMapping(MAPPING, 'test mapping');
    const client = new SalesforceCrmClient(
      salesforceConfig(stub.url, 'test mapping'),
      mapping,
      'test mapping',
    );
    const writer = new SalesforceWriteback(client, {
      object: 'Match__c',
      idField: 'Name',
      apiVersion: '62.0',
      mapping: mapping.writeback as NonNullable<typeof mapping.writeback>,
      mappingSource: 'test mapping',
    });
    return new CrmWritebackOutbox({ db, writer, log: quiet });
  };

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.deleteFrom('webhook_events').execute();
    // The sealer seals every due envelope: only this test's.
    await db.deleteFrom('envelopes').execute();
    stub = await new SalesforceStub().start();
  });
  afterEach(async () => {
    await stub.stop();
  });

  it('writes the status fields at each change and attaches the sealed PDF to the match record as a File', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    const crm = outbox();
    expect(await crm.deliverDue()).toBe(1);
    expect(stub.patches.map((p) => [p.id, p.body.Vertragsstatus__c])).toEqual([[RECORD_ID, 'Versendet']]);
    expect(stub.patches[0]?.body.Vertragsstatus_geaendert_am__c).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    expect(stub.patches[0]?.body).not.toHaveProperty('Vertrag_unterschrieben_am__c');
    expect(stub.files).toEqual([]);

    await envelope.complete(PDF);
    expect(await crm.deliverDue()).toBe(1);
    expect(stub.files).toHaveLength(1);
    const [file] = stub.files;
    expect(file?.bytes.equals(PDF)).toBe(true);
    expect(file?.firstPublishLocationId).toBe(RECORD_ID);
    expect(file?.pathOnClient).toBe('PL-4711 Vertrag - unterschrieben.pdf');
    // The record shows the file: Salesforce linked it for FirstPublishLocationId, and the write-back
    // looked the link up rather than trusting it.
    expect(stub.links).toEqual([
      expect.objectContaining({
        contentDocumentId: file?.contentDocumentId,
        linkedEntityId: RECORD_ID,
        createdBy: 'first-publish',
      }),
    ]);
    expect(
      stub.queries.some(
        (soql) =>
          soql.includes('FROM ContentDocumentLink') &&
          soql.includes(`'${RECORD_ID}'`) &&
          soql.includes(`'${file?.contentDocumentId}'`),
      ),
    ).toBe(true);
    const last = stub.patches.at(-1);
    expect(last?.id).toBe(RECORD_ID);
    expect(last?.body.Vertragsstatus__c).toBe('Unterschrieben');
    // A date field gets the day, a date-time field the moment.
    expect(last?.body.Vertrag_unterschrieben_am__c).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(await envelope.crmHistory()).toEqual([
      {
        type: 'crm_filed',
        detail:
          'Versiegeltes PDF als Datei des Datensatzes und Status „Unterschrieben“ (Vertragsstatus__c, Vertragsstatus_geaendert_am__c, Vertrag_unterschrieben_am__c) in Salesforce.',
      },
    ]);
    // Nothing is written twice.
    expect(await crm.deliverDue(seconds(new Date(), 7200))).toBe(0);
    expect(stub.files).toHaveLength(1);
    expect(stub.uploadAttempts).toBe(1);
  });

  it('delivers once when Salesforce is down for a while, and the history says why not yet', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    const crm = outbox();
    expect(await crm.deliverDue()).toBe(1);
    stub.down = true;
    await envelope.complete(PDF);
    // A second ahead: the database stamps a due delivery in microseconds and this clock counts
    // milliseconds, so a delivery made in the same millisecond would not be due yet.
    const start = seconds(new Date(), 1);
    expect(await crm.deliverDue(start)).toBe(0);
    expect(await crm.deliverDue(seconds(start, 31))).toBe(0);
    expect(await envelope.crmHistory()).toEqual([
      {
        type: 'crm_pending',
        detail: expect.stringMatching(
          /^Status „Unterschrieben“: Das CRM ist nicht erreichbar oder antwortet mit einem Fehler \(.*\)\. Wird erneut versucht\.$/,
        ),
      },
    ]);
    stub.down = false;
    // Not before the pause after the second failure.
    expect(await crm.deliverDue(seconds(start, 40))).toBe(0);
    expect(await crm.deliverDue(seconds(start, 31 + 61))).toBe(1);
    expect(await crm.deliverDue(seconds(start, 86_400))).toBe(0);
    expect(stub.files).toHaveLength(1);
    expect(stub.files[0]?.bytes.equals(PDF)).toBe(true);
    expect((await envelope.crmHistory()).map((entry) => entry.type)).toEqual(['crm_pending', 'crm_filed']);
  });

  it('does not upload the file again after a crash between the upload and keeping its id', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    const crm = outbox();
    expect(await crm.deliverDue()).toBe(1);
    await envelope.complete(PDF);
    // The upload arrives, the PATCH after it does not: the delivery stays pending.
    stub.failPatches = 1;
    const start = seconds(new Date(), 1);
    expect(await crm.deliverDue(start)).toBe(0);
    expect(stub.files).toHaveLength(1);
    // As if the process had died before keeping the file's id.
    await db.updateTable('webhook_deliveries').set({ progress: null }).where('target', '=', 'crm').execute();
    expect(await crm.deliverDue(seconds(start, 31))).toBe(1);
    expect(stub.uploadAttempts).toBe(1);
    expect(stub.files).toHaveLength(1);
    expect(stub.patches.at(-1)?.body.Vertragsstatus__c).toBe('Unterschrieben');
  });

  it('links the file to the record itself when the link Salesforce made is gone after the upload', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    await envelope.complete(PDF);
    stub.unlinkUploads = 1;
    expect(await outbox().deliverDue()).toBe(2);
    const [file] = stub.files;
    expect(stub.links).toEqual([
      expect.objectContaining({
        contentDocumentId: file?.contentDocumentId,
        linkedEntityId: RECORD_ID,
        shareType: 'V',
        createdBy: 'request',
      }),
    ]);
    expect(stub.uploadAttempts).toBe(1);
    expect((await envelope.crmHistory()).at(-1)?.type).toBe('crm_filed');
  });

  it('writes each change once with two replicas delivering at once', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    await envelope.complete(PDF);
    const delivered = await Promise.all([outbox().deliverDue(), outbox().deliverDue()]);
    expect(delivered[0] + delivered[1]).toBe(2);
    expect(stub.patches.map((p) => p.body.Vertragsstatus__c)).toEqual(['Versendet', 'Unterschrieben']);
    expect(stub.uploadAttempts).toBe(1);
  });

  it.each([
    {
      refusal: {
        status: 400,
        errorCode: 'JSON_PARSER_ERROR',
        message: 'Maximum size of request reached. Maximum size of request is 52428800 bytes.',
      },
      reason: /Salesforce lehnt die Datei ab: Sie ist zu groß/,
    },
    {
      refusal: {
        status: 400,
        errorCode: 'INSUFFICIENT_ACCESS_ON_CROSS_REFERENCE_ENTITY',
        message: 'insufficient access rights on cross-reference id',
      },
      reason: /Salesforce verweigert die Berechtigung/,
    },
  ])(
    'gives up at once on a file Salesforce refuses ($refusal.errorCode), with the reason in the history and a metric',
    async ({ refusal, reason }) => {
      const envelope = await crmEnvelope(db, crmEventSink());
      await envelope.send();
      const crm = outbox();
      expect(await crm.deliverDue()).toBe(1);
      stub.refuseUploads = refusal;
      await envelope.complete(PDF);
      expect(await crm.deliverDue()).toBe(0);
      expect(await crm.deliverDue(seconds(new Date(), 7200))).toBe(0);
      expect(stub.uploadAttempts).toBe(1);
      const history = await envelope.crmHistory();
      expect(history).toEqual([{ type: 'crm_refused', detail: expect.stringMatching(reason) }]);
      expect(history[0]?.detail).toContain(refusal.message);

      const text = await new Metrics({ db, renderQueueDepth: () => 0, databasePoolInUse: () => 0 }).text();
      const lines = text.split('\n').filter((line) => line.includes('crm_writeback_deliveries'));
      expect(lines).toContain('crm_writeback_deliveries{status="failed"} 1');
      expect(lines).toContain('crm_writeback_deliveries{status="pending"} 0');
      const check = spawnSync('promtool', ['check', 'metrics'], {
        input: `${lines.join('\n')}\n`,
        encoding: 'utf8',
      });
      if (check.error)
        throw new Error(`promtool is needed (apt-get install prometheus): ${check.error.message}`);
      expect(check.stderr.split('\n').filter(Boolean)).toEqual([]);
    },
  );

  it('refuses the start when the mapping names a field the object does not have, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crm-writeback-'));
    const mappingFile = join(dir, 'mapping.json');
    await writeFile(
      mappingFile,
      JSON.stringify({ ...MAPPING, writeback: { ...WRITEBACK, signedAt: 'Vertrag_signiert_am__c' } }),
    );
    const deps = {
      config: { crm: salesforceConfig(stub.url, mappingFile) } as unknown as Config,
      db,
    } as AppDependencies;
    const start = createCrmWriteback(deps, quiet as never);
    await expect(start).rejects.toThrow(
      /writeback\.signedAt \("Vertrag_signiert_am__c"\): Match__c has no such field/,
    );
    await expect(start).rejects.toThrow(mappingFile);

    // With the fields there, it starts.
    await writeFile(mappingFile, JSON.stringify(MAPPING));
    const running = await createCrmWriteback(deps, quiet as never);
    expect(running.targets.map((t) => t.target)).toEqual(['crm']);
  });
});
