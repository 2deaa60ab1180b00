import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { Metrics } from '../operations/metrics.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { LegalHolds } from './legal-holds.js';
import { RetentionRules } from './retention-rules.js';

const DAY = 24 * 60 * 60_000;
const quiet = { error() {}, warn() {}, info() {} } as never;
const NOW = new Date('2030-06-15T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const noMatches = { find: async () => undefined, findMany: async () => new Map() };

describe.each(testDatabases())('the deletion run on $name', (database) => {
  let db: Db;
  let audit: AuditLog;
  let rules: RetentionRules;
  let holds: LegalHolds;
  let mailDirectory: string;
  let now = NOW;
  const deleted: [string, string, number][] = [];
  const run = (batchSize = 100) =>
    new DeletionRun({
      db,
      audit,
      rules,
      mailDirectory,
      log: quiet,
      now: () => now,
      batchSize,
      observer: { retentionDeleted: (rule, kind, n) => deleted.push([rule, kind, n]) },
    });
  const exists = async (id: string) =>
    (await db.selectFrom('documents').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    db = await database.open();
    audit = new AuditLog(db);
    rules = new RetentionRules(db, audit, () => now);
    holds = new LegalHolds(db, audit, noMatches, () => now);
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    now = NOW;
    deleted.length = 0;
    mailDirectory = mkdtempSync(join(tmpdir(), 'vg-mail-'));
    for (const table of [
      'envelopes',
      'documents',
      'support_reports',
      'outgoing_mail',
      'legal_holds',
      'retention_runs',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
  });

  it('deletes exactly what each default rule makes due, and keeps the rest', async () => {
    const failedOld = await storeDocument(db, { matchId: 'PL-1', createdAt: daysAgo(31), status: 'failed' });
    const failedNew = await storeDocument(db, { matchId: 'PL-1', createdAt: daysAgo(29), status: 'failed' });
    const letterOld = await storeDocument(db, {
      matchId: 'PL-1',
      createdAt: new Date('2024-06-14T12:00:00Z'),
    });
    const letterNew = await storeDocument(db, {
      matchId: 'PL-1',
      createdAt: new Date('2024-06-16T12:00:00Z'),
    });
    const draftOld = await storeDocument(db, { matchId: 'PL-2', createdAt: daysAgo(91) });
    const draftOldEnvelope = await storeEnvelope(db, {
      documentId: draftOld,
      matchId: 'PL-2',
      status: 'created',
      createdAt: daysAgo(91),
    });
    const draftNew = await storeDocument(db, { matchId: 'PL-2', createdAt: daysAgo(89) });
    await storeEnvelope(db, {
      documentId: draftNew,
      matchId: 'PL-2',
      status: 'created',
      createdAt: daysAgo(89),
    });
    const declinedOld = await storeDocument(db, { matchId: 'PL-3', createdAt: daysAgo(400) });
    await storeEnvelope(db, {
      documentId: declinedOld,
      matchId: 'PL-3',
      status: 'declined',
      createdAt: daysAgo(400),
      updatedAt: new Date('2029-12-14T12:00:00Z'),
    });
    const voidedNew = await storeDocument(db, { matchId: 'PL-3', createdAt: daysAgo(400) });
    await storeEnvelope(db, {
      documentId: voidedNew,
      matchId: 'PL-3',
      status: 'voided',
      createdAt: daysAgo(400),
      updatedAt: new Date('2029-12-16T12:00:00Z'),
    });
    const contractOld = await storeDocument(db, {
      matchId: 'PL-4',
      createdAt: new Date('2020-01-01T00:00:00Z'),
    });
    const contractOldEnvelope = await storeEnvelope(db, {
      documentId: contractOld,
      matchId: 'PL-4',
      status: 'completed',
      createdAt: new Date('2020-01-01T00:00:00Z'),
      completedAt: new Date('2020-06-14T12:00:00Z'),
      recipients: [{ name: 'Paul Partner', email: 'paul@partner.example' }],
    });
    // Generated eleven years ago, but completed less than ten: a contract is kept from its completion.
    const contractNew = await storeDocument(db, {
      matchId: 'PL-4',
      createdAt: new Date('2019-06-01T00:00:00Z'),
    });
    await storeEnvelope(db, {
      documentId: contractNew,
      matchId: 'PL-4',
      status: 'completed',
      createdAt: new Date('2019-06-01T00:00:00Z'),
      completedAt: new Date('2020-06-16T12:00:00Z'),
    });
    // Running for years: never due, however old.
    const running = await storeDocument(db, { matchId: 'PL-5', createdAt: daysAgo(4000) });
    await storeEnvelope(db, {
      documentId: running,
      matchId: 'PL-5',
      status: 'sent',
      createdAt: daysAgo(4000),
      recipients: [{ name: 'Wartend', email: 'w@x.example', tokenExpiresAt: daysAgo(-3) }],
    });
    await db
      .insertInto('support_reports')
      .values([
        {
          reporter_email: 'a@demo.local',
          reporter_name: 'A',
          subject: 'alt',
          body: 'x',
          created_at: daysAgo(366),
        },
        {
          reporter_email: 'a@demo.local',
          reporter_name: 'A',
          subject: 'neu',
          body: 'y',
          created_at: daysAgo(364),
        },
      ])
      .execute();
    await db
      .insertInto('outgoing_mail')
      .values([
        { recipient: 'a@x.example', subject: 'alt', body: 'b', sent_at: daysAgo(31) },
        { recipient: 'a@x.example', subject: 'neu', body: 'b', sent_at: daysAgo(29) },
        { recipient: 'a@x.example', subject: 'wartet', body: 'b', sent_at: null },
      ])
      .execute();
    writeFileSync(join(mailDirectory, 'alt.eml'), 'Subject: alt');
    writeFileSync(join(mailDirectory, 'neu.eml'), 'Subject: neu');
    utimesSync(join(mailDirectory, 'alt.eml'), daysAgo(31), daysAgo(31));
    utimesSync(join(mailDirectory, 'neu.eml'), daysAgo(29), daysAgo(29));

    const counts = await run(2).run();

    expect(counts).toEqual({
      failed_generations: 1,
      generated_documents: 1,
      envelope_drafts: 1,
      ended_envelopes: 1,
      completed_contracts: 1,
      support_reports: 1,
      mails: 2,
    });
    for (const gone of [failedOld, letterOld, draftOld, declinedOld, contractOld])
      expect(await exists(gone)).toBe(false);
    for (const kept of [failedNew, letterNew, draftNew, voidedNew, contractNew, running]) {
      expect(await exists(kept)).toBe(true);
    }
    expect(
      await db
        .selectFrom('document_versions')
        .select('document_id')
        .where('document_id', '=', letterOld)
        .execute(),
    ).toEqual([]);
    expect(
      (await db.selectFrom('support_reports').select('subject').execute()).map((r) => r.subject),
    ).toEqual(['neu']);
    expect(
      (await db.selectFrom('outgoing_mail').select('subject').orderBy('subject').execute()).map(
        (r) => r.subject,
      ),
    ).toEqual(['neu', 'wartet']);
    expect(readdirSync(mailDirectory)).toEqual(['neu.eml']);

    // The contract's envelope and its events stay: the history says it existed and which rule deleted it.
    const envelope = await db
      .selectFrom('envelopes')
      .select(['sealed_pdf', 'certificate', 'sealed_sha256', 'files_deleted_rule'])
      .where('id', '=', contractOldEnvelope)
      .executeTakeFirstOrThrow();
    expect(envelope).toMatchObject({
      sealed_pdf: null,
      certificate: null,
      files_deleted_rule: 'completed_contracts',
    });
    const events = await db
      .selectFrom('envelope_events')
      .select(['type', 'detail'])
      .where('envelope_id', '=', contractOldEnvelope)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['created', 'files_deleted']);
    const records = await db
      .selectFrom('deletion_records')
      .select(['kind', 'sha256', 'rule'])
      .where('subject_id', '=', contractOldEnvelope)
      .execute();
    expect(records).toContainEqual({
      kind: 'sealed_pdf',
      sha256: envelope.sealed_sha256,
      rule: 'completed_contracts',
    });
    expect(records.map((r) => r.kind).sort()).toEqual(['certificate', 'sealed_pdf']);
    expect(
      await db.selectFrom('envelopes').select('id').where('id', '=', draftOldEnvelope).execute(),
    ).toHaveLength(1);

    // Batches of two: the three document steps' audit entries name rule and counts.
    const entries = await audit.list({ limit: 50 });
    expect(entries.filter((e) => e.action === 'retention.delete').map((e) => e.subject)).toEqual(
      expect.arrayContaining([
        'Fehlgeschlagene Erstellungen',
        'Problemmeldungen',
        'Mails (Ausgang und Mail-Ordner)',
      ]),
    );
    expect(deleted).toContainEqual(['completed_contracts', 'document', 1]);

    // A second run finds nothing more due.
    expect(await run().run()).toEqual({});
  });

  it('deletes nothing of a held match until the hold is lifted', async () => {
    const held = await storeDocument(db, { matchId: 'PL-7', createdAt: daysAgo(31), status: 'failed' });
    const other = await storeDocument(db, { matchId: 'PL-8', createdAt: daysAgo(31), status: 'failed' });
    await db
      .insertInto('support_reports')
      .values({
        reporter_email: 'a@demo.local',
        reporter_name: 'A',
        subject: 'alt',
        body: 'x',
        match_id: 'PL-7',
        created_at: daysAgo(400),
      })
      .execute();
    writeFileSync(join(mailDirectory, 'held.eml'), 'Subject: Vertrag PL-7');
    utimesSync(join(mailDirectory, 'held.eml'), daysAgo(31), daysAgo(31));
    const hold = await holds.place('admin@demo.local', 'PL-7', 'Rechtsstreit', quiet);

    await run().run();
    expect(await exists(held)).toBe(true);
    expect(await exists(other)).toBe(false);
    expect(await db.selectFrom('support_reports').select('id').execute()).toHaveLength(1);
    expect(readdirSync(mailDirectory)).toEqual(['held.eml']);

    await holds.lift('admin@demo.local', hold.id);
    await run().run();
    expect(await exists(held)).toBe(false);
    expect(await db.selectFrom('support_reports').select('id').execute()).toHaveLength(0);
    expect(readdirSync(mailDirectory)).toEqual([]);
    const actions = (await audit.list({ limit: 20 })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['legal_hold.place', 'legal_hold.lift']));
  });

  it('follows a changed rule, and never deletes under a rule set longer', async () => {
    const doc = await storeDocument(db, { matchId: 'PL-9', createdAt: daysAgo(40), status: 'failed' });
    await rules.change('admin@demo.local', 'failed_generations', { value: 2, unit: 'months' });
    await run().run();
    expect(await exists(doc)).toBe(true);
    now = new Date(NOW.getTime() + 25 * DAY);
    await run().run();
    expect(await exists(doc)).toBe(false);
    await rules.change('admin@demo.local', 'failed_generations', { value: 30, unit: 'days' });
  });

  it('runs once with two replicas at once, and daily', async () => {
    for (let i = 0; i < 6; i++)
      await storeDocument(db, { matchId: 'PL-10', createdAt: daysAgo(40), status: 'failed' });
    const [a, b] = await Promise.all([run(1).run(), run(1).run()]);
    const total = (a?.failed_generations ?? 0) + (b?.failed_generations ?? 0);
    expect(total).toBe(6);
    // One replica deletes everything under the lease. The other is refused while that run holds it, or —
    // when it reaches the lease only after the first released it (a busy machine delays its statement) —
    // runs after it and finds nothing left: never both at once, nothing deleted twice.
    expect([a, b].filter((r) => r !== undefined && Object.keys(r).length > 0)).toEqual([
      { failed_generations: 6 },
    ]);
    expect(await run().runIfDue()).toBeUndefined();
    now = new Date(NOW.getTime() + DAY + 1);
    expect(await run().runIfDue()).toEqual({});
  });

  it('resumes after a run that died: its lease expires and the rest is still due', async () => {
    for (let i = 0; i < 3; i++)
      await storeDocument(db, { matchId: 'PL-11', createdAt: daysAgo(40), status: 'failed' });
    // A replica took the lease and died before deleting anything.
    await db
      .insertInto('retention_lease')
      .values({ id: 1, holder: 'gestorben', until: new Date(NOW.getTime() + 60_000) })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ holder: 'gestorben', until: new Date(NOW.getTime() + 60_000) }),
      )
      .execute();
    expect(await run().run()).toBeUndefined();
    now = new Date(NOW.getTime() + 10 * 60_000);
    expect(await run().run()).toEqual({ failed_generations: 3 });
  });
  it('treats a sent envelope whose every link expired half a year ago as expired, and reports to the metrics', async () => {
    const expired = await storeDocument(db, { matchId: 'PL-12', createdAt: daysAgo(400) });
    await storeEnvelope(db, {
      documentId: expired,
      matchId: 'PL-12',
      status: 'sent',
      createdAt: daysAgo(400),
      updatedAt: daysAgo(390),
      recipients: [{ name: 'Weg', email: 'weg@x.example', tokenExpiresAt: daysAgo(370) }],
    });
    const stillValid = await storeDocument(db, { matchId: 'PL-12', createdAt: daysAgo(400) });
    await storeEnvelope(db, {
      documentId: stillValid,
      matchId: 'PL-12',
      status: 'sent',
      createdAt: daysAgo(400),
      updatedAt: daysAgo(390),
      recipients: [
        { name: 'Weg', email: 'weg@x.example', tokenExpiresAt: daysAgo(370) },
        { name: 'Neu', email: 'neu@x.example', tokenExpiresAt: daysAgo(10) },
      ],
    });
    const metrics = new Metrics({ db, renderQueueDepth: () => 0, databasePoolInUse: () => undefined });
    const counts = await new DeletionRun({
      db,
      audit,
      rules,
      log: quiet,
      now: () => now,
      observer: metrics,
    }).run();
    expect(counts).toEqual({ ended_envelopes: 1 });
    expect(await exists(expired)).toBe(false);
    expect(await exists(stillValid)).toBe(true);
    expect(await metrics.text()).toContain(
      'retention_deleted_total{rule="ended_envelopes",kind="document"} 1',
    );
  });
  it('leaves a document whole when its batch fails midway, and the next run deletes it', async () => {
    const doc = await storeDocument(db, { matchId: 'PL-13', createdAt: new Date('2020-01-01T00:00:00Z') });
    const envelope = await storeEnvelope(db, {
      documentId: doc,
      matchId: 'PL-13',
      status: 'completed',
      createdAt: new Date('2010-01-01T00:00:00Z'),
      completedAt: new Date('2010-02-01T00:00:00Z'),
    });
    // The audit entry is the batch's last write: failing there, everything before it must roll back.
    const failingAudit = {
      record: async () => Promise.reject(new Error('Datenbank weg')),
    } as unknown as AuditLog;
    const failing = new DeletionRun({ db, audit: failingAudit, rules, log: quiet, now: () => now });
    await expect(failing.run()).rejects.toThrow('Datenbank weg');
    expect(await exists(doc)).toBe(true);
    expect(
      await db.selectFrom('document_versions').select('version').where('document_id', '=', doc).execute(),
    ).toHaveLength(1);
    const kept = await db
      .selectFrom('envelopes')
      .select(['sealed_pdf', 'files_deleted_at'])
      .where('id', '=', envelope)
      .executeTakeFirstOrThrow();
    expect(kept.sealed_pdf).not.toBeNull();
    expect(kept.files_deleted_at).toBeNull();
    expect(
      await db.selectFrom('deletion_records').select('id').where('subject_id', '=', doc).execute(),
    ).toEqual([]);

    expect(await run().run()).toEqual({ completed_contracts: 1 });
    expect(await exists(doc)).toBe(false);
  });
  it('deletes a document an approval request was made for, and keeps the request', async () => {
    const doc = await storeDocument(db, { matchId: 'PL-14', createdAt: daysAgo(40), status: 'failed' });
    await sql`insert into approval_requests (document_id, document_version, document_sha256, match_id, doc_key,
        file_name, requested_by, requested_by_name, reasons, rules, status)
      values (${doc}, 1, 'x', 'PL-14', 'de-wm-pp-rv', 'Vertrag.docx', 'berater@demo.local', 'Berta', '[]', '{}', 'void')`.execute(
      db,
    );
    expect(await run().run()).toEqual({ failed_generations: 1 });
    expect(await exists(doc)).toBe(false);
    const requests = await sql<{
      n: string;
    }>`select count(*) as n from approval_requests where document_id = ${doc}`.execute(db);
    expect(Number(requests.rows[0]?.n)).toBe(1);
  });
});
