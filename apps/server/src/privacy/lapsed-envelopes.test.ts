import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatchRecord } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { restoreBackup } from '../backup/restore-backup.js';
import { writeBackup } from '../backup/write-backup.js';
import type { Db } from '../db/database.js';
import { up as lapseLeftEnvelopes } from '../db/migrations/0028_files_deleted_envelopes.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { DeletionRun } from './deletion-run.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { RetentionRules } from './retention-rules.js';

const DAY = 24 * 60 * 60_000;
const YEAR = 365 * DAY;
const quiet = { error() {}, warn() {}, info() {} } as never;
const ERASED = /^gelöscht am \d\d\.\d\d\.\d{4}$/;

function customerMatch(matchId: string, contact: string): MatchRecord {
  return {
    matchId,
    beraterJob: 'Anna Albrecht',
    candidateFirstName: 'Piet',
    candidateLastName: 'Partner',
    kunde: 'Elbwerk Logistik AG',
    ansprechpartnerKunde: contact,
    vk: 118,
  };
}

/**
 * A customer's contact named only in an envelope that never ended by itself — a draft never sent, a sent
 * one whose links all expired — whose document the retention rules deleted: the envelope lapses, and the
 * person can be erased, as a new administrator would do it on Verwaltung → Personendaten.
 */
describe.each(testDatabases())('a person named only in a lapsed envelope, on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;
  /** The moment the database is moved to; the app's own requests run now, as it does. */
  const START = new Date();
  let clock = START;
  const later = (ms: number) => new Date(START.getTime() + ms);

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    admin = await t.signIn('ops@demo.local');
    await new MatchStore(db).upsertMany([
      customerMatch('PL-81', 'Klara Kundin'),
      customerMatch('PL-82', 'Emil Ablauf'),
    ]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const deletionRun = (on = db) => {
    const audit = new AuditLog(on);
    return new DeletionRun({
      db: on,
      audit,
      rules: new RetentionRules(on, audit, () => clock),
      log: quiet,
      now: () => clock,
    }).run();
  };
  const post = (url: string, payload: object, token = admin, app = t) =>
    app.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const sources = async (query: string, app = t) => {
    const found = await post(
      '/backend/admin/person-data/search',
      { query },
      await app.signIn('ops@demo.local'),
      app,
    );
    expect(found.statusCode, found.body).toBe(200);
    return [...new Set(found.json().hits.map((h: { source: string }) => h.source))];
  };
  const eventsOf = (envelopeId: string) =>
    db
      .selectFrom('envelope_events')
      .select(['type', 'actor', 'detail'])
      .where('envelope_id', '=', envelopeId)
      .orderBy('id')
      .execute();
  const envelopeOf = (envelopeId: string) =>
    db
      .selectFrom('envelopes')
      .select(['status', 'files_deleted_rule'])
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();

  it('erases the recipient of a draft once the rule deleted it, 100 days on, and for good 7 years on', async () => {
    const email = 'klara.kundin@elbwerk.example';
    const documentId = await storeDocument(db, {
      matchId: 'PL-81',
      createdAt: START,
      data: { ansprechpartnerKunde: 'Klara Kundin', kundeEmail: email },
    });
    const draft = await storeEnvelope(db, {
      documentId,
      matchId: 'PL-81',
      status: 'created',
      createdAt: START,
      recipients: [{ name: 'Klara Kundin', email, role: 'Kunde', status: 'waiting' }],
    });

    // Within its 90 days the draft runs: the erase asks to void it first.
    const early = await post('/backend/admin/person-data/erase', { email, confirm: true });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().error).toBe('running_envelopes');

    clock = later(100 * DAY);
    expect(await deletionRun()).toMatchObject({ envelope_drafts: 1 });
    expect(await envelopeOf(draft)).toEqual({ status: 'lapsed', files_deleted_rule: 'envelope_drafts' });
    expect((await eventsOf(draft)).map((e) => [e.type, e.actor, e.detail])).toEqual([
      ['created', 'berater@demo.local', null],
      ['files_deleted', 'system:aufbewahrung', 'Regel „Nie versendete Umschlag-Entwürfe“'],
      ['lapsed', 'system:aufbewahrung', 'Regel „Nie versendete Umschlag-Entwürfe“'],
    ]);

    // Voiding it is no longer asked for: the answer says it ended and what is left to do.
    const voided = await post(
      `/backend/signature/envelopes/${draft}/void`,
      { reason: '' },
      await t.signIn('legal@demo.local'),
    );
    expect(voided.statusCode, voided.body).toBe(409);
    expect(voided.json().error).toBe('envelope_lapsed');
    expect(voided.json().message).toContain('Verwaltung → Personendaten');

    const erased = await post('/backend/admin/person-data/erase', { email, confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().erased).toContainEqual({
      what: 'Empfänger beendeter Umschläge anonymisiert',
      count: 1,
    });
    const recipient = await db
      .selectFrom('envelope_recipients')
      .select(['name', 'email', 'erased_at'])
      .where('envelope_id', '=', draft)
      .executeTakeFirstOrThrow();
    expect(recipient).toMatchObject({
      name: expect.stringMatching(ERASED),
      email: expect.stringMatching(ERASED),
    });
    expect(recipient.erased_at).not.toBeNull();
    // The rest of the envelope stays as it was: only what names them is rewritten.
    expect(await envelopeOf(draft)).toEqual({ status: 'lapsed', files_deleted_rule: 'envelope_drafts' });
    expect((await eventsOf(draft)).map((e) => e.type)).toEqual([
      'created',
      'files_deleted',
      'lapsed',
      'signer_erased',
    ]);
    expect(await sources(email)).toEqual(['audit']);
    expect(await sources('Klara Kundin')).toEqual([]);

    clock = later(7 * YEAR);
    await deletionRun();
    expect(await envelopeOf(draft)).toEqual({ status: 'lapsed', files_deleted_rule: 'envelope_drafts' });
    expect(await sources(email)).toEqual(['audit']);
    // Only the audit log's record of the search before names them now.
    expect(await sources('Klara Kundin')).toEqual(['audit']);
  });

  it('erases the signer of an expired envelope once its rule deleted it, with their name gone from its events', async () => {
    const email = 'emil.ablauf@elbwerk.example';
    const sentAt = later(-400 * DAY);
    const documentId = await storeDocument(db, { matchId: 'PL-82', createdAt: sentAt });
    const expired = await storeEnvelope(db, {
      documentId,
      matchId: 'PL-82',
      status: 'sent',
      createdAt: sentAt,
      updatedAt: later(-390 * DAY),
      recipients: [{ name: 'Emil Ablauf', email, role: 'Kunde', tokenExpiresAt: later(-386 * DAY) }],
    });
    await db
      .insertInto('envelope_events')
      .values([
        {
          envelope_id: expired,
          type: 'sent',
          actor: 'berater@demo.local',
          detail: `1. Kunde: Emil Ablauf <${email}>`,
        },
        { envelope_id: expired, type: 'opened', actor: email, ip: '198.51.100.7' },
        {
          envelope_id: expired,
          type: 'expired',
          actor: 'system',
          detail: `Link von Emil Ablauf <${email}> abgelaufen`,
        },
      ])
      .execute();

    clock = START;
    expect(await deletionRun()).toMatchObject({ ended_envelopes: 1 });
    expect(await envelopeOf(expired)).toEqual({ status: 'lapsed', files_deleted_rule: 'ended_envelopes' });
    const voided = await post(
      `/backend/signature/envelopes/${expired}/void`,
      { reason: 'abgelaufen' },
      await t.signIn('berater@demo.local'),
    );
    expect(voided.statusCode, voided.body).toBe(409);

    const erased = await post('/backend/admin/person-data/erase', { email, confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    const events = await eventsOf(expired);
    expect(events.map((e) => e.type)).toEqual([
      'created',
      'sent',
      'opened',
      'expired',
      'files_deleted',
      'lapsed',
      'signer_erased',
    ]);
    expect(JSON.stringify(events)).not.toMatch(/Emil|emil\.ablauf|198\.51/);
    expect(events[1]?.detail).toMatch(/^1\. Kunde: gelöscht am \d\d\.\d\d\.\d{4} <gelöscht am/);
    expect(await sources(email)).toEqual(['audit']);
    expect(await sources('Emil Ablauf')).toEqual([]);
  });

  it('lets the envelopes an earlier version left open with their files deleted lapse, as a restored older backup has them', async () => {
    const documentId = await storeDocument(db, { matchId: 'PL-81', createdAt: START });
    const left = await storeEnvelope(db, {
      documentId,
      matchId: 'PL-81',
      status: 'created',
      createdAt: later(-200 * DAY),
      recipients: [{ name: 'Lena Liegen', email: 'lena@elbwerk.example', role: 'Kunde', status: 'waiting' }],
    });
    const filesDeletedAt = later(-100 * DAY);
    await db.deleteFrom('documents').where('id', '=', documentId).execute();
    await db
      .updateTable('envelopes')
      .set({ files_deleted_at: filesDeletedAt, files_deleted_rule: 'envelope_drafts' })
      .where('id', '=', left)
      .execute();
    const running = await storeEnvelope(db, {
      documentId: await storeDocument(db, { matchId: 'PL-81', createdAt: START }),
      matchId: 'PL-81',
      status: 'created',
      createdAt: START,
    });

    await lapseLeftEnvelopes(db as never);
    expect(await envelopeOf(left)).toEqual({ status: 'lapsed', files_deleted_rule: 'envelope_drafts' });
    expect((await envelopeOf(running)).status).toBe('created');
    expect((await eventsOf(left)).at(-1)).toEqual({
      type: 'lapsed',
      actor: 'system:aufbewahrung',
      detail: 'Regel „Nie versendete Umschlag-Entwürfe“',
    });
    const erased = await post('/backend/admin/person-data/erase', {
      email: 'lena@elbwerk.example',
      confirm: true,
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await sources('Lena Liegen')).toEqual([]);
  });

  it('erases the person again after a restore of a backup from before the run, once the next run lets the draft lapse', async () => {
    const email = 'rita.rueck@elbwerk.example';
    clock = START;
    const draft = await storeEnvelope(db, {
      documentId: await storeDocument(db, { matchId: 'PL-81', createdAt: START }),
      matchId: 'PL-81',
      status: 'created',
      createdAt: START,
      recipients: [{ name: 'Rita Rück', email, role: 'Kunde', status: 'waiting' }],
    });
    const backup = join(mkdtempSync(join(tmpdir(), 'vg-lapsed-')), 'vor-dem-lauf.backup');
    await writeBackup(db, backup, {
      productVersion: '0.0.0-test',
      database: database.name === 'postgres' ? 'postgres' : 'pglite',
    });
    clock = later(100 * DAY);
    await deletionRun();
    expect((await post('/backend/admin/person-data/erase', { email, confirm: true })).statusCode).toBe(200);

    const restored = await database.openBlank();
    await restoreBackup(restored, backup);
    const app = await createTestApp(restored, { demoStaff: true });
    try {
      const before = await post(
        '/backend/admin/person-data/erase',
        { email, confirm: true },
        await app.signIn('ops@demo.local'),
        app,
      );
      expect(before.statusCode, before.body).toBe(409);
      await deletionRun(restored);
      const status = await restored
        .selectFrom('envelopes')
        .select('status')
        .where('id', '=', draft)
        .executeTakeFirstOrThrow();
      expect(status.status).toBe('lapsed');
      const erased = await post(
        '/backend/admin/person-data/erase',
        { email, confirm: true },
        await app.signIn('ops@demo.local'),
        app,
      );
      expect(erased.statusCode, erased.body).toBe(200);
      expect(await sources(email, app)).toEqual(['audit']);
    } finally {
      await app.app.close();
      await restored.destroy();
    }
    // A second database made from nothing (PGlite's initdb alone is some 3 CPU-seconds), a restore into
    // it and a second app: several times a test's usual work, as the backup tests' restores have.
  }, 60_000);
});
