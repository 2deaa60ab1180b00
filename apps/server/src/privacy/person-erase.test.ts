import type { MatchRecord } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { PersonErasure } from './person-erase.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const YEAR = 365 * 24 * 60 * 60_000;
const ERASED = /^gelöscht am \d\d\.\d\d\.\d{4}$/;

/** A match of the built-in store whose candidate is `first last`, by default with a firm of their name. */
function partnerMatch(
  matchId: string,
  first: string,
  last: string,
  firm = `${first} ${last} IT-Beratung`,
): MatchRecord {
  return {
    matchId,
    beraterJob: 'Anna Albrecht',
    candidateFirstName: first,
    candidateLastName: last,
    ppGesellschaft: firm,
    ppAdresse: 'Lindenallee 14, 22587 Hamburg',
    kunde: 'Elbwerk Logistik AG',
    ansprechpartnerKunde: 'Markus Oberländer',
    vk: 118,
  };
}

const recordOf = async (db: Db, matchId: string) =>
  (await db.selectFrom('matches').select('record').where('match_id', '=', matchId).executeTakeFirstOrThrow())
    .record as Record<string, unknown>;

/**
 * A project partner known here by name only — in a match of the built-in store and in documents, and as
 * a recipient under an address the requester does not know — is erased by full name with the safeguards
 * of an erase by address: running envelopes refuse it, a legal hold and a signed contract keep what they
 * hold, the audit log records it.
 */
describe.each(testDatabases())('erasing a person by name on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;
  let declinedDocument: string;
  let declinedEnvelope: string;
  let completedDocument: string;
  let completedEnvelope: string;
  let runningEnvelope: string;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    admin = await t.signIn('ops@demo.local');
    const now = Date.now();
    await new MatchStore(db).upsertMany([
      partnerMatch('PL-41', 'Piet', 'Partner'),
      // A firm of another name: the person is only in the two name fields.
      partnerMatch('PL-42', 'Piet', 'Partner', 'Nordlicht Consulting GmbH'),
      // Under a legal hold: stays as it is.
      partnerMatch('PL-43', 'Piet', 'Partner'),
      // Someone else, who only shares the first name.
      partnerMatch('PL-44', 'Piet', 'Anders'),
    ]);
    await db
      .insertInto('legal_holds')
      .values({
        match_id: 'PL-43',
        reason: 'Rechtsstreit',
        placed_by: 'ops@demo.local',
        placed_at: new Date(),
      })
      .execute();
    declinedDocument = await storeDocument(db, { matchId: 'PL-41', createdAt: new Date(now - YEAR) });
    await db
      .updateTable('documents')
      .set({ file_name: 'PL-41 Rahmenvertrag Projektpartner Piet Partner.docx' })
      .where('id', '=', declinedDocument)
      .execute();
    declinedEnvelope = await storeEnvelope(db, {
      documentId: declinedDocument,
      matchId: 'PL-41',
      status: 'declined',
      createdAt: new Date(now - YEAR),
      recipients: [{ name: 'Piet Partner', email: 'kontakt@partner-it.example', status: 'declined' }],
    });
    await db
      .insertInto('envelope_events')
      .values({
        envelope_id: declinedEnvelope,
        type: 'declined',
        actor: 'kontakt@partner-it.example',
        ip: '198.51.100.4',
      })
      .execute();
    completedDocument = await storeDocument(db, { matchId: 'PL-42', createdAt: new Date(now - YEAR) });
    completedEnvelope = await storeEnvelope(db, {
      documentId: completedDocument,
      matchId: 'PL-42',
      status: 'completed',
      createdAt: new Date(now - YEAR),
      completedAt: new Date('2026-01-15T00:00:00Z'),
      recipients: [{ name: 'Piet Partner', email: 'p.partner@mail.example', signedIp: '198.51.100.9' }],
    });
    const running = await storeDocument(db, { matchId: 'PL-42', createdAt: new Date(now) });
    runningEnvelope = await storeEnvelope(db, {
      documentId: running,
      matchId: 'PL-42',
      status: 'sent',
      createdAt: new Date(now),
      recipients: [{ name: 'PIET  PARTNER', email: 'anders@partner-it.example' }],
    });
    await db
      .insertInto('outgoing_mail')
      .values({ recipient: 'kontakt@partner-it.example', subject: 'Vertrag', body: 'Hallo Piet Partner' })
      .execute();
    // A colleague of the same name keeps their account: by name it is listed, not deleted.
    await db
      .insertInto('users')
      .values({
        email: 'piet.partner@demo.local',
        name: 'Piet Partner',
        permission: 1,
        updated_at: new Date(),
      })
      .execute();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(admin), payload });

  it('finds the candidate of a match by their whole name, which stands in two fields', async () => {
    const found = await post('/backend/admin/person-data/search', { query: 'piet partner' });
    expect(found.statusCode, found.body).toBe(200);
    const matches = found
      .json()
      .hits.filter((h: { source: string }) => h.source === 'match')
      .map((h: { matchId: string; where: string }) => `${h.matchId} ${h.where}`);
    // The firm's name names them in two; in PL-42 only the two name fields together do.
    expect(matches.sort()).toEqual([
      'PL-41 Feld ppGesellschaft',
      'PL-42 Felder candidateFirstName candidateLastName',
      'PL-43 Feld ppGesellschaft',
    ]);
    const split = await post('/backend/admin/person-data/search', { query: 'Piet Anders' });
    expect(split.json().hits).toContainEqual(
      expect.objectContaining({ source: 'match', matchId: 'PL-44', where: 'Feld ppGesellschaft' }),
    );
  });

  it('refuses a first name alone, and both an address and a name at once, in German', async () => {
    const firstName = await post('/backend/admin/person-data/erase', { name: 'Piet', confirm: true });
    expect(firstName.statusCode).toBe(400);
    expect(firstName.json().fields.name).toEqual([
      'Bitte gib den vollen Namen der Person an (Vor- und Nachname).',
    ]);
    const both = await post('/backend/admin/person-data/erase', {
      name: 'Piet Partner',
      email: 'p.partner@mail.example',
      confirm: true,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBeTruthy();
    const unconfirmed = await post('/backend/admin/person-data/erase', { name: 'Piet Partner' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(
      await db.selectFrom('audit_entries').select('id').where('action', '=', 'person.erase').execute(),
    ).toEqual([]);
  });

  it('refuses while an envelope to the name runs, under whichever address', async () => {
    const refused = await post('/backend/admin/person-data/erase', { name: 'Piet Partner', confirm: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().fields.envelopes).toEqual([runningEnvelope]);
    expect((await recordOf(db, 'PL-41')).candidateLastName).toBe('Partner');
  });

  it('erases by name what no duty keeps, pseudonymises the matches, and keeps what a hold or the contract holds', async () => {
    await db.updateTable('envelopes').set({ status: 'voided' }).where('id', '=', runningEnvelope).execute();
    const erased = await post('/backend/admin/person-data/erase', {
      name: ' piet   PARTNER ',
      confirm: true,
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const { erased: counts, retained } = erased.json();
    expect(counts).toEqual(
      expect.arrayContaining([
        { what: 'Matches (Person pseudonymisiert)', count: 2 },
        { what: 'Mails im Ausgang', count: 1 },
        { what: 'IP-Adressen von Unterschriften', count: 1 },
      ]),
    );

    // The built-in store: the person's fields read „gelöscht am …“, the rest of the match stays.
    for (const matchId of ['PL-41', 'PL-42']) {
      const record = await recordOf(db, matchId);
      expect(record.candidateFirstName).toMatch(ERASED);
      expect(record.candidateLastName).toMatch(ERASED);
      expect(record).toMatchObject({
        kunde: 'Elbwerk Logistik AG',
        ansprechpartnerKunde: 'Markus Oberländer',
        vk: 118,
      });
    }
    // A firm of their name, and so its address, is theirs; another firm is not.
    expect(await recordOf(db, 'PL-41')).toMatchObject({
      ppGesellschaft: expect.stringMatching(ERASED),
      ppAdresse: expect.stringMatching(ERASED),
    });
    expect(await recordOf(db, 'PL-42')).toMatchObject({
      ppGesellschaft: 'Nordlicht Consulting GmbH',
      ppAdresse: 'Lindenallee 14, 22587 Hamburg',
    });
    expect(await recordOf(db, 'PL-43')).toMatchObject({ candidateLastName: 'Partner' });
    expect(await recordOf(db, 'PL-44')).toMatchObject({
      candidateFirstName: 'Piet',
      candidateLastName: 'Anders',
    });
    expect(retained).toContainEqual(
      expect.objectContaining({ what: 'Match-Daten', matchId: 'PL-43', rule: 'Aufbewahrungssperre' }),
    );

    // The declined envelope's document is gone, its recipient and events name nobody.
    expect(
      await db.selectFrom('documents').select('id').where('id', '=', declinedDocument).execute(),
    ).toEqual([]);
    const recipient = await db
      .selectFrom('envelope_recipients')
      .select(['name', 'email'])
      .where('envelope_id', '=', declinedEnvelope)
      .executeTakeFirstOrThrow();
    expect(recipient.name).toMatch(ERASED);
    expect(recipient.email).toMatch(ERASED);
    const declined = await db
      .selectFrom('envelope_events')
      .select(['actor', 'ip'])
      .where('envelope_id', '=', declinedEnvelope)
      .where('type', '=', 'declined')
      .executeTakeFirstOrThrow();
    expect(declined.actor).toMatch(ERASED);
    expect(declined.ip).toBeNull();

    // The signed contract stays with its signer, without the IP address, listed with its rule and date.
    const signer = await db
      .selectFrom('envelope_recipients')
      .select(['name', 'signed_ip'])
      .where('envelope_id', '=', completedEnvelope)
      .executeTakeFirstOrThrow();
    expect(signer).toEqual({ name: 'Piet Partner', signed_ip: null });
    expect(retained).toContainEqual(
      expect.objectContaining({
        id: completedDocument,
        rule: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
        until: '2036-01-15T00:00:00.000Z',
      }),
    );
    // A colleague's account is only deleted by its address.
    expect(retained).toContainEqual(
      expect.objectContaining({
        what: 'Eintrag in der Mitarbeiterliste: Piet Partner <piet.partner@demo.local>',
        rule: 'Nur über die E-Mail-Adresse zu löschen',
      }),
    );
    expect(
      await db.selectFrom('users').select('email').where('email', '=', 'piet.partner@demo.local').execute(),
    ).toHaveLength(1);

    const entry = await db
      .selectFrom('audit_entries')
      .select(['actor', 'subject', 'new_value'])
      .where('action', '=', 'person.erase')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor: 'ops@demo.local', subject: 'piet partner' });
    expect(entry.new_value).toContain('Matches (Person pseudonymisiert): 2');

    // Afterwards the name is found only where a duty or a hold keeps it, and in the log.
    const after = await post('/backend/admin/person-data/search', { query: 'Piet Partner' });
    const places = after
      .json()
      .hits.map((h: { source: string; matchId: string | null }) => `${h.source} ${h.matchId ?? ''}`.trim());
    expect(places.filter((p: string) => p.startsWith('match'))).toEqual(['match PL-43']);
    expect(places).toContain('recipient PL-42');
    expect(places).not.toContain('recipient PL-41');
    expect(places).not.toContain('mail');
  });
});

/** The matches of an external CRM are not ours: erase leaves them, clears only our cached copy, and says so. */
describe.each(testDatabases())('erasing a person whose matches come from a CRM on $name', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => db.destroy());

  it('lists the CRM’s records as not changed here, and still erases the built-in store’s leftovers by address', async () => {
    const audit = new AuditLog(db);
    const search = new PersonSearch(db);
    const erasure = new PersonErasure({
      db,
      audit,
      search,
      rules: new RetentionRules(db, audit),
      configuredAdministrators: new Set(),
      externalCrm: true,
    });
    const document = await storeDocument(db, {
      matchId: 'PL-51',
      createdAt: new Date(Date.now() - YEAR),
      data: { ansprechpartner: 'Clara Crm' },
    });
    await storeEnvelope(db, {
      documentId: document,
      matchId: 'PL-51',
      status: 'voided',
      createdAt: new Date(Date.now() - YEAR),
      recipients: [{ name: 'Clara Crm', email: 'clara@crm.example', status: 'sent' }],
    });
    await db
      .insertInto('crm_match_cache')
      .values([
        {
          match_id: 'PL-51',
          record: JSON.stringify(partnerMatch('PL-51', 'Clara', 'Crm')),
          fetched_at: new Date(),
        },
        {
          match_id: 'PL-52',
          record: JSON.stringify(partnerMatch('PL-52', 'Otto', 'Other')),
          fetched_at: new Date(),
        },
      ])
      .execute();
    await new MatchStore(db).upsertMany([partnerMatch('PL-50', 'Clara', 'Crm')]);

    const result = await erasure.erase('ops@demo.local', { email: 'Clara@crm.example' });
    expect(result.retained).toContainEqual({
      what: 'Match-Daten im externen CRM (PL-51): hier nicht geändert, dort zu löschen',
      id: 'crm',
      matchId: null,
      rule: 'Externes CRM',
      until: null,
    });
    expect(result.erased).toEqual(
      expect.arrayContaining([
        { what: 'Zwischengespeicherte Matches aus dem CRM', count: 1 },
        // By the name the address goes by as a recipient.
        { what: 'Matches (Person pseudonymisiert)', count: 1 },
      ]),
    );
    expect(await db.selectFrom('crm_match_cache').select('match_id').execute()).toEqual([
      { match_id: 'PL-52' },
    ]);
    expect((await recordOf(db, 'PL-50')).candidateFirstName).toMatch(ERASED);
  });
});
