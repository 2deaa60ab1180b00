import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { storeDocument, storeEnvelope } from '../privacy/fixtures.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const PAULA = { name: 'Paula Kandidatin', email: 'paula@kandidat.example' };
const YEAR = 365 * 24 * 60 * 60_000;

describe.each(testDatabases())('a person’s data on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;
  let mailDirectory: string;
  let completedDocument: string;
  let completedEnvelope: string;
  let declinedDocument: string;
  let declinedEnvelope: string;
  let runningEnvelope: string;
  let letter: string;

  beforeAll(async () => {
    db = await database.open();
    const dataDir = mkdtempSync(join(tmpdir(), 'vg-person-'));
    mailDirectory = join(dataDir, 'mail');
    mkdirSync(mailDirectory);
    t = await createTestApp(db, { demoStaff: true, env: { DATA_DIR: dataDir } });
    admin = await t.signIn('ops@demo.local');
    const now = Date.now();
    // As candidate: the built-in store's match names her in its two name fields.
    await new MatchStore(db).upsertMany([
      {
        matchId: 'PL-31',
        beraterJob: 'Anna Albrecht',
        candidateFirstName: 'Paula',
        candidateLastName: 'Kandidatin',
        kunde: 'Elbwerk Logistik AG',
      },
    ]);
    // And the document's data names her.
    completedDocument = await storeDocument(db, {
      matchId: 'PL-31',
      createdAt: new Date(now - 2 * YEAR),
      data: { pp_vorname: 'Paula', pp_nachname: 'Kandidatin', pp_email: PAULA.email },
    });
    // As signer of the completed contract.
    completedEnvelope = await storeEnvelope(db, {
      documentId: completedDocument,
      matchId: 'PL-31',
      status: 'completed',
      createdAt: new Date(now - 2 * YEAR),
      completedAt: new Date('2025-03-01T00:00:00Z'),
      recipients: [{ ...PAULA, signedIp: '203.0.113.7' }],
    });
    // As CC of a declined envelope.
    declinedDocument = await storeDocument(db, { matchId: 'PL-32', createdAt: new Date(now - YEAR) });
    declinedEnvelope = await storeEnvelope(db, {
      documentId: declinedDocument,
      matchId: 'PL-32',
      status: 'declined',
      createdAt: new Date(now - YEAR),
      recipients: [
        { name: 'Kurt Kunde', email: 'kurt@kunde.example', status: 'declined' },
        { ...PAULA, role: 'CC', status: 'copy' },
      ],
    });
    await db
      .insertInto('envelope_events')
      .values({ envelope_id: declinedEnvelope, type: 'opened', actor: PAULA.email, ip: '203.0.113.8' })
      .execute();
    // A business letter naming her: kept six years.
    letter = await storeDocument(db, {
      matchId: 'PL-33',
      createdAt: new Date(now - YEAR),
      data: { ansprechpartner: PAULA.name },
    });
    const runningDocument = await storeDocument(db, { matchId: 'PL-34', createdAt: new Date(now) });
    runningEnvelope = await storeEnvelope(db, {
      documentId: runningDocument,
      matchId: 'PL-34',
      status: 'sent',
      createdAt: new Date(now),
      recipients: [PAULA],
    });
    await db
      .insertInto('outgoing_mail')
      .values({
        recipient: PAULA.email,
        subject: 'Bitte unterschreiben',
        body: 'Hallo Paula',
        sent_at: new Date(),
      })
      .execute();
    writeFileSync(join(mailDirectory, 'einladung.eml'), `To: ${PAULA.email}\nSubject: Vertrag\n\nHallo`);
    writeFileSync(join(mailDirectory, 'andere.eml'), 'To: jemand@anders.example\n\nHallo');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(admin), payload });
  const sources = (hits: { source: string }[]) => hits.map((h) => h.source).sort();

  it('finds her as candidate, signer and CC, in mails and the mail folder, and says where', async () => {
    const byEmail = await post('/backend/admin/person-data/search', { query: 'PAULA@kandidat.example' });
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    const { hits } = byEmail.json();
    // By her address and by the name it goes by here: the business letter names her by name only.
    expect(sources(hits)).toEqual([
      'document',
      'document',
      'envelope_event',
      'mail',
      'mail_file',
      'match',
      'recipient',
      'recipient',
      'recipient',
    ]);
    expect(hits.filter((h: { source: string }) => h.source === 'document')).toEqual([
      expect.objectContaining({
        id: completedDocument,
        matchId: 'PL-31',
        where: 'Vertrag.docx (de-wm-pp-rv) · pp_email',
      }),
      expect.objectContaining({
        id: letter,
        matchId: 'PL-33',
        where: 'Vertrag.docx (de-wm-pp-rv) · ansprechpartner',
      }),
    ]);
    const byName = await post('/backend/admin/person-data/search', { query: 'Paula Kandidatin' });
    expect(sources(byName.json().hits)).toEqual(['document', 'match', 'recipient', 'recipient', 'recipient']);
    const tooShort = await post('/backend/admin/person-data/search', { query: 'Pa' });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().fields.query).toEqual([
      'Bitte gib mindestens 3 Zeichen einer E-Mail-Adresse oder eines Namens an.',
    ]);
  });

  it('exports every record and file that names her as one ZIP, audited, as a download that expires', async () => {
    const created = await post('/backend/admin/person-data/exports', { query: PAULA.email });
    expect(created.statusCode, created.body).toBe(201);
    const { id, files } = created.json();
    // The contract's version, its sealed PDF and certificate, the letter's version, the mail file.
    expect(files).toBe(5);
    const download = await t.app.inject({
      method: 'GET',
      url: `/backend/admin/person-data/exports/${id}`,
      headers: bearer(admin),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const zip = new PizZip(download.rawPayload);
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir);
    expect(names.sort()).toEqual(
      [
        'person.json',
        `dateien/dokumente/${completedDocument}/v1-Vertrag.docx`,
        `dateien/dokumente/${letter}/v1-Vertrag.docx`,
        `dateien/umschlaege/${completedEnvelope}/gesiegelt.pdf`,
        `dateien/umschlaege/${completedEnvelope}/zertifikat.pdf`,
        'dateien/mails/einladung.eml',
      ].sort(),
    );
    const json = JSON.parse(zip.file('person.json')?.asText() ?? '{}');
    expect(json.datensaetze.documents.map((d: { id: string }) => d.id).sort()).toEqual(
      [completedDocument, letter].sort(),
    );
    expect(json.datensaetze.matches).toEqual([
      expect.objectContaining({
        match_id: 'PL-31',
        record: expect.objectContaining({ candidateFirstName: 'Paula', candidateLastName: 'Kandidatin' }),
      }),
    ]);
    expect(json.datensaetze.recipients.map((r: { role: string }) => r.role).sort()).toEqual([
      'CC',
      'Projektpartner',
      'Projektpartner',
    ]);
    expect(json.datensaetze.envelopes.map((e: { id: string }) => e.id).sort()).toEqual(
      [completedEnvelope, declinedEnvelope, runningEnvelope].sort(),
    );
    expect(json.datensaetze.mails).toHaveLength(1);
    const entry = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'person.export')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor: 'ops@demo.local', subject: PAULA.email });

    await db
      .updateTable('person_exports')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const expired = await t.app.inject({
      method: 'GET',
      url: `/backend/admin/person-data/exports/${id}`,
      headers: bearer(admin),
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe('Dieser Export ist abgelaufen. Bitte erstelle einen neuen.');
  });

  it('refuses to erase while an envelope to her runs, listing it, and erases what no duty keeps once it is voided', async () => {
    const refused = await post('/backend/admin/person-data/erase', { email: PAULA.email, confirm: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain(`PL-34: „Bitte unterschreiben“ (${runningEnvelope})`);
    expect(refused.json().fields.envelopes).toEqual([runningEnvelope]);
    const unconfirmed = await post('/backend/admin/person-data/erase', { email: PAULA.email });
    expect(unconfirmed.statusCode).toBe(400);

    await db.updateTable('envelopes').set({ status: 'voided' }).where('id', '=', runningEnvelope).execute();
    const erased = await post('/backend/admin/person-data/erase', { email: PAULA.email, confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    const { retained } = erased.json();
    expect(retained).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: completedDocument,
          rule: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
          until: '2035-03-01T00:00:00.000Z',
        }),
        expect.objectContaining({ id: letter, rule: 'Erstellte Dokumente (Geschäftsbriefe)' }),
      ]),
    );
    // The declined envelope's files are gone; its history names her as erased.
    expect(
      await db.selectFrom('documents').select('id').where('id', '=', declinedDocument).execute(),
    ).toEqual([]);
    const cc = await db
      .selectFrom('envelope_recipients')
      .select(['name', 'email'])
      .where('envelope_id', '=', declinedEnvelope)
      .where('role', '=', 'CC')
      .executeTakeFirstOrThrow();
    expect(cc.name).toMatch(/^gelöscht am \d\d\.\d\d\.\d{4}$/);
    const events = await db
      .selectFrom('envelope_events')
      .select(['type', 'actor', 'ip'])
      .where('envelope_id', '=', declinedEnvelope)
      .orderBy('id')
      .execute();
    expect(events.find((e) => e.type === 'opened')).toEqual({ type: 'opened', actor: cc.name, ip: null });
    expect(events.map((e) => e.type)).toContain('signer_erased');
    // The contract stays, without the IP address of her signature.
    const signer = await db
      .selectFrom('envelope_recipients')
      .select(['name', 'signed_ip'])
      .where('envelope_id', '=', completedEnvelope)
      .executeTakeFirstOrThrow();
    expect(signer).toEqual({ name: PAULA.name, signed_ip: null });
    expect(readdirSync(mailDirectory)).toEqual(['andere.eml']);

    // A search afterwards finds only what the law keeps: the contract, its signer, the business letter, the log.
    const after = await post('/backend/admin/person-data/search', { query: PAULA.email });
    // By her address and the name it still goes by as the contract's signer: the letter names her by name.
    const kept = sources(after.json().hits);
    expect(kept.filter((source) => source !== 'audit')).toEqual(['document', 'document', 'recipient']);
    expect(kept).toContain('audit');
    const byName = await post('/backend/admin/person-data/search', { query: PAULA.name });
    expect(sources(byName.json().hits)).toEqual(['audit', 'document', 'recipient']);
  });
});
