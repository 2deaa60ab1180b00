import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { PersonErasure } from './person-erase.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const YEAR = 365 * 24 * 60 * 60_000;
const ERASED = /^gelöscht am \d\d\.\d\d\.\d{4}$/;
const HANNA = { name: 'Hanna Halt', email: 'hanna@halt.example' };

function erasureOn(db: Db, mailDirectory?: string) {
  const audit = new AuditLog(db);
  const search = new PersonSearch(db, mailDirectory);
  const erasure = new PersonErasure({
    db,
    audit,
    search,
    rules: new RetentionRules(db, audit),
    ...(mailDirectory ? { mailDirectory } : {}),
    configuredAdministrators: new Set(),
  });
  return { search, erasure };
}

/** A legal hold keeps everything of its match as it is, an erase included: listed under the hold. */
describe.each(testDatabases())('erasing a person whose data a legal hold keeps on $name', (database) => {
  let db: Db;
  let mailDirectory: string;
  let envelope: string;

  beforeAll(async () => {
    db = await database.open();
    mailDirectory = mkdtempSync(join(tmpdir(), 'vg-erase-hold-'));
    await db
      .insertInto('legal_holds')
      .values({
        match_id: 'PL-61',
        reason: 'Rechtsstreit',
        placed_by: 'ops@demo.local',
        placed_at: new Date(),
      })
      .execute();
    const document = await storeDocument(db, { matchId: 'PL-61', createdAt: new Date(Date.now() - YEAR) });
    envelope = await storeEnvelope(db, {
      documentId: document,
      matchId: 'PL-61',
      status: 'completed',
      createdAt: new Date(Date.now() - YEAR),
      completedAt: new Date(Date.now() - YEAR),
      recipients: [{ ...HANNA, signedIp: '198.51.100.20' }],
    });
    const recipient = await db
      .selectFrom('envelope_recipients')
      .select('id')
      .where('envelope_id', '=', envelope)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('envelope_recipients')
      .set({ signed_user_agent: 'Firefox' })
      .where('id', '=', recipient.id)
      .execute();
    await db
      .insertInto('envelope_events')
      .values([
        {
          envelope_id: envelope,
          recipient_id: recipient.id,
          type: 'signed',
          actor: HANNA.email,
          ip: '198.51.100.20',
        },
        { envelope_id: envelope, type: 'opened', actor: HANNA.email, ip: '198.51.100.21' },
      ])
      .execute();
    await db
      .insertInto('outgoing_mail')
      .values([
        {
          recipient: HANNA.email,
          subject: 'Bitte unterschreiben',
          body: 'Hallo Hanna',
          reference: `envelope:${envelope}`,
          sent_at: new Date(),
        },
        { recipient: HANNA.email, subject: 'Zugang', body: 'Hallo Hanna', sent_at: new Date() },
      ])
      .execute();
    await db
      .insertInto('support_reports')
      .values([
        {
          reporter_email: HANNA.email,
          reporter_name: HANNA.name,
          subject: 'PL-61 hängt',
          body: '…',
          match_id: 'PL-61',
        },
        {
          reporter_email: HANNA.email,
          reporter_name: HANNA.name,
          subject: 'Anmeldung',
          body: '…',
          match_id: null,
        },
      ])
      .execute();
    writeFileSync(join(mailDirectory, 'held.eml'), `To: ${HANNA.email}\nSubject: PL-61 Vertrag\n\nHallo`);
    writeFileSync(join(mailDirectory, 'free.eml'), `To: ${HANNA.email}\nSubject: Zugang\n\nHallo`);
  });
  afterAll(() => db.destroy());

  it('leaves the held match’s mail, report, mail file, signature and event addresses, and lists each under the hold', async () => {
    const { erasure } = erasureOn(db, mailDirectory);
    const result = await erasure.erase('ops@demo.local', { email: HANNA.email });

    const mails = await db.selectFrom('outgoing_mail').select(['subject']).execute();
    expect(mails).toEqual([{ subject: 'Bitte unterschreiben' }]);
    expect(
      (await db.selectFrom('support_reports').select('subject').execute()).map((r) => r.subject),
    ).toEqual(['PL-61 hängt']);
    expect(readdirSync(mailDirectory)).toEqual(['held.eml']);
    expect(
      await db
        .selectFrom('envelope_recipients')
        .select(['name', 'signed_ip', 'signed_user_agent'])
        .where('envelope_id', '=', envelope)
        .executeTakeFirstOrThrow(),
    ).toEqual({ name: HANNA.name, signed_ip: '198.51.100.20', signed_user_agent: 'Firefox' });
    const ips = await db
      .selectFrom('envelope_events')
      .select('ip')
      .where('envelope_id', '=', envelope)
      .where('ip', 'is not', null)
      .execute();
    expect(ips.map((e) => e.ip).sort()).toEqual(['198.51.100.20', '198.51.100.21']);

    const held = result.retained.filter((r) => r.rule === 'Aufbewahrungssperre').map((r) => r.what);
    expect(held).toEqual(
      expect.arrayContaining([
        'Mail „Bitte unterschreiben“ im Ausgang',
        'Problemmeldung „PL-61 hängt“',
        'Mail held.eml im Mail-Ordner',
        `Empfänger im Umschlag ${envelope} mit seinen Ereignissen, IP-Adressen und Browsern`,
      ]),
    );
    expect(result.erased).toEqual(
      expect.arrayContaining([
        { what: 'Mails im Ausgang', count: 1 },
        { what: 'Problemmeldungen', count: 1 },
        { what: 'Mails im Mail-Ordner', count: 1 },
      ]),
    );
    expect(result.erased.map((e) => e.what)).not.toContain('IP-Adressen von Unterschriften');
    expect(result.erased.map((e) => e.what)).not.toContain('IP-Adressen in Ereignissen');
  });
});

/**
 * A declined envelope's history keeps what happened, not who: the name a signer typed and a decline's
 * reason are the person's words and go with them, and a search by their name finds nothing of it after.
 */
describe.each(testDatabases())('erasing the signers of a declined envelope on $name', (database) => {
  let db: Db;
  let envelope: string;

  beforeAll(async () => {
    db = await database.open();
    const document = await storeDocument(db, { matchId: 'PL-62', createdAt: new Date(Date.now() - YEAR) });
    envelope = await storeEnvelope(db, {
      documentId: document,
      matchId: 'PL-62',
      status: 'declined',
      createdAt: new Date(Date.now() - YEAR),
      recipients: [
        { name: 'Sina Signer', email: 'sina@signer.example', status: 'signed' },
        { name: 'Dora Decline', email: 'dora@decline.example', status: 'declined', role: 'Kunde' },
      ],
    });
    const [sina, dora] = await db
      .selectFrom('envelope_recipients')
      .select('id')
      .where('envelope_id', '=', envelope)
      .orderBy('position')
      .execute();
    await db
      .updateTable('envelope_recipients')
      .set({ typed_name: 'Sina Signer' })
      .where('id', '=', sina?.id ?? '')
      .execute();
    await db
      .updateTable('envelope_recipients')
      .set({ decline_reason: 'Zu teuer, Dora' })
      .where('id', '=', dora?.id ?? '')
      .execute();
    await db
      .insertInto('envelope_events')
      .values([
        {
          envelope_id: envelope,
          type: 'sent',
          actor: 'berater@demo.local',
          detail:
            '1. Projektpartner: Sina Signer <sina@signer.example>; 2. Kunde: Dora Decline <dora@decline.example>',
        },
        {
          envelope_id: envelope,
          recipient_id: sina?.id ?? null,
          type: 'signed',
          actor: 'sina@signer.example',
          detail: 'Getippter Name: Sina Signer',
        },
        {
          envelope_id: envelope,
          recipient_id: dora?.id ?? null,
          type: 'declined',
          actor: 'dora@decline.example',
          detail: 'Zu teuer, Dora',
        },
      ])
      .execute();
  });
  afterAll(() => db.destroy());

  const detailOf = async (type: 'sent' | 'signed' | 'declined') =>
    (
      await db
        .selectFrom('envelope_events')
        .select('detail')
        .where('envelope_id', '=', envelope)
        .where('type', '=', type)
        .executeTakeFirstOrThrow()
    ).detail;

  it('replaces the typed name, the reason and their names in the send’s list, and a search finds them no more', async () => {
    const { erasure, search } = erasureOn(db);
    await erasure.erase('ops@demo.local', { email: 'dora@decline.example' });
    expect(await detailOf('declined')).toMatch(ERASED);
    const sent = await detailOf('sent');
    expect(sent).toContain('1. Projektpartner: Sina Signer <sina@signer.example>');
    expect(sent).not.toContain('Dora');
    expect(sent).not.toContain('dora@decline.example');

    await erasure.erase('ops@demo.local', { name: 'Sina Signer' });
    expect(await detailOf('signed')).toMatch(ERASED);
    expect(await detailOf('sent')).not.toContain('Sina');

    for (const query of ['Sina Signer', 'Dora Decline', 'Zu teuer']) {
      const places = (await search.search(query)).filter((h) => h.source !== 'audit');
      expect(places, query).toEqual([]);
    }
  });
});
