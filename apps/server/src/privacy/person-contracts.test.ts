import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { PersonErase, PersonHit } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope, signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { DeletionRun } from './deletion-run.js';
import { ErasureFollowUp } from './erasure-requests.js';
import { PersonErasure } from './person-erase.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const { configDir } = loadConfig({}, '0');
const quiet = { error() {}, warn() {}, info() {} } as never;
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const OTHER_PDF = Buffer.from('%PDF-1.7\n2 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const KEPT_RULE = 'Abgeschlossene Verträge und ihre gesiegelten PDFs';
const JANA = { name: 'Jana Kowalski', email: 'jana@kowalski.example' };
const ANNA = 'anna.albrecht@demo.local';

/** Ten years on, as the rule for completed contracts counts by default. */
function tenYearsAfter(at: Date): Date {
  const due = new Date(at.getTime());
  due.setUTCFullYear(due.getUTCFullYear() + 10);
  return due;
}

/**
 * The running contracts name people: a project partner as counterparty and party (their firm bears their
 * name), a consultant, whoever signed a document signed elsewhere, and a colleague's calendar link.
 * Search, export and erase take them in; a contract record and its uploaded signed PDF are kept as long
 * as the signed contract is, and the deletion run deletes the PDF by the rule for completed contracts.
 */
describe.each(testDatabases())('a person in the running contracts on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;
  let legal: string;
  let clock = new Date();
  /** Jana's contract: the record of her completed envelope. */
  let janaRecord: string;
  let janaEnvelope: string;
  /** Marta Muster signed for the customer a document legal uploaded as signed elsewhere. */
  let martaRecord: string;
  /** Otto Ohnefrist signed another one; nobody erases him. */
  let ottoRecord: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    t = await createTestApp(db, { demoStaff: true });
    admin = await t.signIn('ops@demo.local');
    legal = await t.signIn('legal@demo.local');
    const berta = await t.signIn('berater@demo.local');
    const anna = await t.signIn(ANNA, 'Anna Albrecht');

    const { id, link } = await sentPartnerEnvelope(t, { token: berta, matchId: 'PL-10001', partner: JANA });
    await signWithLink(t, link, JANA.name);
    janaEnvelope = id;
    janaRecord = (
      await db
        .selectFrom('contract_records')
        .select('id')
        .where('envelope_id', '=', id)
        .executeTakeFirstOrThrow()
    ).id;

    const upload = async (signedBy: string, pdf: Buffer) => {
      const generated = await t.app.inject({
        method: 'POST',
        url: '/backend/generateDocx/docx-de-wm-rv/PL-10002',
        headers: bearer(legal),
        payload: { dataList: { vertragspartner_type: 'k' } },
      });
      expect(generated.statusCode, generated.body).toBe(200);
      const made = await t.app.inject({
        method: 'POST',
        url: `/backend/documents/${generated.headers['x-document-id']}/signed-elsewhere?signedOn=2026-11-20&signedBy=${encodeURIComponent(signedBy)}`,
        headers: { ...bearer(legal), 'content-type': 'application/pdf' },
        payload: pdf,
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().contractId as string;
    };
    martaRecord = await upload('Marta Muster', PDF);
    ottoRecord = await upload('Otto Ohnefrist', OTHER_PDF);

    const feed = await t.app.inject({
      method: 'POST',
      url: '/backend/contracts/calendar-feed',
      headers: bearer(anna),
    });
    expect(feed.statusCode, feed.body).toBe(201);
    await db
      .insertInto('contract_reminder_settings')
      .values({ company: 'wm', notice_days: 30, end_days: 10, changed_by: ANNA })
      .execute();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(admin), payload });
  const search = async (query: string): Promise<PersonHit[]> => {
    const found = await post('/backend/admin/person-data/search', { query });
    expect(found.statusCode, found.body).toBe(200);
    return found.json().hits;
  };
  const contractHits = (hits: PersonHit[]) =>
    hits
      .filter(
        (h) =>
          h.source.startsWith('contract_') || h.source === 'calendar_feed' || h.source === 'reminder_setting',
      )
      .map((h) => `${h.source} ${h.id}`)
      .sort();
  const erase = async (person: { email: string } | { name: string }): Promise<PersonErase> => {
    const erased = await post('/backend/admin/person-data/erase', { ...person, confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    return erased.json();
  };
  const recordOf = (id: string) =>
    db
      .selectFrom('contract_records')
      .select([
        'counterparty',
        'customer',
        'consultant',
        'parties',
        'signed_by',
        'signed_at',
        'end_date',
        'signed_pdf',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const eventsOf = (id: string) =>
    db
      .selectFrom('contract_events')
      .select(['type', 'actor', 'detail'])
      .where('contract_id', '=', id)
      .orderBy('at')
      .orderBy('id')
      .execute();
  const deletionRun = () => {
    const audit = new AuditLog(db);
    const rules = new RetentionRules(db, audit, () => clock);
    const erasure = new PersonErasure({
      db,
      audit,
      search: new PersonSearch(db),
      rules,
      configuredAdministrators: new Set(),
      now: () => clock,
    });
    return new DeletionRun({
      db,
      audit,
      rules,
      log: quiet,
      now: () => clock,
      followUp: new ErasureFollowUp(db, erasure, () => clock),
    }).run();
  };

  it('finds the partner as counterparty and party, in the document’s deal values, and exports the record', async () => {
    const hits = await search(JANA.email);
    const record = hits.find((h) => h.source === 'contract_record');
    expect(record).toMatchObject({
      id: janaRecord,
      matchId: 'PL-10001',
      where: `Vertrag ${janaRecord} (einzelauftrag) · Vertragspartner, Parteien`,
      value: 'Jana Kowalski IT-Beratung',
    });
    expect(contractHits(hits)).toEqual([`contract_record ${janaRecord}`]);
    // The deal's values the document was made with name her by first and last name, and her firm.
    const terms = hits.filter((h) => h.source === 'document' && h.where.includes('Vertragswerte'));
    expect(terms.map((h) => h.where.split(' · ').slice(1).join(' · ')).sort()).toEqual([
      'Vertragswerte · Feld ppGesellschaft',
    ]);
    // By first name alone: the first-name field and the firm.
    expect(
      (await search('Jana'))
        .filter((h) => h.source === 'document' && h.where.includes('Vertragswerte'))
        .map((h) => h.value)
        .sort(),
    ).toEqual(['Jana', 'Jana Kowalski IT-Beratung']);

    const created = await post('/backend/admin/person-data/exports', { query: JANA.email });
    expect(created.statusCode, created.body).toBe(201);
    const zip = await t.app.inject({
      method: 'GET',
      url: `/backend/admin/person-data/exports/${created.json().id}`,
      headers: bearer(admin),
    });
    expect(zip.statusCode).toBe(200);
    const json = JSON.parse(new PizZip(zip.rawPayload).file('person.json')?.asText() ?? '{}');
    expect(json.datensaetze.contractRecords).toEqual([
      expect.objectContaining({ id: janaRecord, counterparty: 'Jana Kowalski IT-Beratung' }),
    ]);
    expect(json.datensaetze.documents[0].terms).toMatchObject({ candidateLastName: 'Kowalski' });
  });

  it('finds the signer of an uploaded contract in its record and history, and exports the signed PDF', async () => {
    const hits = await search('Marta Muster');
    const events = await eventsOf(martaRecord);
    expect(events.map((e) => e.type)).toEqual(['signed_elsewhere']);
    expect(contractHits(hits)).toHaveLength(2);
    expect(contractHits(hits)).toContain(`contract_record ${martaRecord}`);
    expect(hits.find((h) => h.source === 'contract_record')).toMatchObject({
      where: `Vertrag ${martaRecord} (rahmenvertrag) · unterschrieben von · mit unterschriebenem PDF`,
      value: 'Marta Muster',
    });
    expect(hits.find((h) => h.source === 'contract_event')).toMatchObject({
      value: 'legal@demo.local · Marta Muster',
      where: `Vertrag ${martaRecord} · Ereignis signed_elsewhere`,
    });

    const created = await post('/backend/admin/person-data/exports', { query: 'Marta Muster' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ files: 1 });
    const zip = await t.app.inject({
      method: 'GET',
      url: `/backend/admin/person-data/exports/${created.json().id}`,
      headers: bearer(admin),
    });
    const archive = new PizZip(zip.rawPayload);
    const pdf = archive.file(`dateien/vertraege/${martaRecord}/unterschrieben.pdf`)?.asUint8Array();
    expect(Buffer.from(pdf ?? [])).toEqual(PDF);
    const json = JSON.parse(archive.file('person.json')?.asText() ?? '{}');
    expect(json.datensaetze.contractRecords).toEqual([
      expect.objectContaining({
        id: martaRecord,
        signed_by: 'Marta Muster',
        signed_pdf: `(${PDF.length} Bytes, als Datei im Export)`,
      }),
    ]);
    expect(json.datensaetze.contractEvents).toEqual([
      expect.objectContaining({ type: 'signed_elsewhere', detail: 'Marta Muster' }),
    ]);
  });

  it('keeps the partner’s contract record until its envelope’s files go, and lists it with that date', async () => {
    const { completed_at } = await db
      .selectFrom('envelopes')
      .select('completed_at')
      .where('id', '=', janaEnvelope)
      .executeTakeFirstOrThrow();
    const result = await erase({ email: JANA.email });
    expect(result.retained).toContainEqual(
      expect.objectContaining({
        id: janaRecord,
        matchId: 'PL-10001',
        rule: KEPT_RULE,
        until: tenYearsAfter(completed_at as Date).toISOString(),
      }),
    );
    expect(result.retained.filter((r) => r.what.startsWith('Hochgeladenes'))).toEqual([]);
    expect(await recordOf(janaRecord)).toMatchObject({ counterparty: 'Jana Kowalski IT-Beratung' });
    // Kept, so still found.
    expect(contractHits(await search(JANA.name))).toEqual([`contract_record ${janaRecord}`]);
  });

  it('erases a colleague’s calendar link and setting at once and keeps them as consultant of a kept contract', async () => {
    expect(contractHits(await search(ANNA))).toEqual(
      [`calendar_feed ${ANNA}`, `contract_record ${janaRecord}`, 'reminder_setting wm'].sort(),
    );
    const result = await erase({ email: ANNA });
    expect(result.erased).toEqual(
      expect.arrayContaining([
        { what: 'Links zum Kalender-Abo der Vertragsfristen', count: 1 },
        { what: 'Einstellungen der Vertragserinnerungen (Person ersetzt)', count: 1 },
      ]),
    );
    expect(await db.selectFrom('calendar_feeds').selectAll().execute()).toEqual([]);
    const setting = await db
      .selectFrom('contract_reminder_settings')
      .select('changed_by')
      .executeTakeFirstOrThrow();
    expect(setting.changed_by).toMatch(/^gelöscht am \d\d\.\d\d\.\d{4}$/);
    expect(result.retained).toContainEqual(expect.objectContaining({ id: janaRecord, rule: KEPT_RULE }));
    expect((await recordOf(janaRecord)).consultant).toBe('Anna Albrecht');
  });

  it('keeps an uploaded signed PDF and its signer until ten years after the signature', async () => {
    const result = await erase({ name: 'Marta Muster' });
    const until = '2036-11-20T12:00:00.000Z';
    expect(result.retained.filter((r) => r.id === martaRecord)).toEqual([
      {
        what: `Namen im Vertrag ${martaRecord} (rahmenvertrag, unterschrieben am 20.11.2026)`,
        id: martaRecord,
        matchId: 'PL-10002',
        rule: KEPT_RULE,
        until,
      },
      {
        what: `Hochgeladenes unterschriebenes PDF des Vertrags ${martaRecord} (unterschrieben am 20.11.2026)`,
        id: martaRecord,
        matchId: 'PL-10002',
        rule: KEPT_RULE,
        until,
      },
    ]);
    const kept = await recordOf(martaRecord);
    expect(kept.signed_by).toBe('Marta Muster');
    expect(Buffer.from(kept.signed_pdf ?? [])).toEqual(PDF);
  });

  it('deletes the uploaded signed PDFs by the rule, with a deletion record, and then erases the signer asked for', async () => {
    // A day before the rule: nothing of the uploads goes.
    clock = new Date('2036-11-19T12:00:00Z');
    const early = await deletionRun();
    expect(early?.completed_contracts ?? 0).toBe(0);
    expect((await recordOf(martaRecord)).signed_pdf).not.toBeNull();

    clock = new Date('2036-11-21T12:00:00Z');
    const run = await deletionRun();
    // The two uploads; Jana's envelope is due on its completion's day only.
    expect(run).toMatchObject({ completed_contracts: 2, erase_request: 1 });
    const records = await db
      .selectFrom('deletion_records')
      .select(['subject_id', 'sha256', 'rule', 'match_id'])
      .where('kind', '=', 'signed_pdf')
      .orderBy('subject_id')
      .execute();
    const sha = (content: Buffer) => createHash('sha256').update(content).digest('hex');
    expect(records).toEqual(
      [
        { subject_id: martaRecord, sha256: sha(PDF), rule: 'completed_contracts', match_id: 'PL-10002' },
        { subject_id: ottoRecord, sha256: sha(OTHER_PDF), rule: 'completed_contracts', match_id: 'PL-10002' },
      ].sort((a, b) => a.subject_id.localeCompare(b.subject_id)),
    );
    // The run deletes the file only; the record stays with its dates, and whom nobody erased stays named.
    const otto = await recordOf(ottoRecord);
    expect(otto).toMatchObject({ signed_by: 'Otto Ohnefrist', end_date: '2027-12-31', signed_pdf: null });
    expect(otto.signed_at.toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect((await eventsOf(ottoRecord)).map((e) => e.type).sort()).toEqual([
      'files_deleted',
      'signed_elsewhere',
    ]);
    // The erase asked for in 2026 is finished now that the signed contract is gone.
    const marta = await recordOf(martaRecord);
    expect(marta).toMatchObject({ signed_by: 'gelöscht am 21.11.2036', signed_pdf: null });
    expect(marta.signed_at.toISOString()).toBe('2026-11-20T12:00:00.000Z');
    // Both entries of 2036 have the same moment: compared by their type.
    const byType = (a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type);
    expect((await eventsOf(martaRecord)).sort(byType)).toEqual([
      {
        type: 'files_deleted',
        actor: 'system:aufbewahrung',
        detail: 'Unterschriebenes PDF gelöscht, Regel „Abgeschlossene Verträge und ihre gesiegelten PDFs“',
      },
      {
        type: 'person_erased',
        actor: 'system:aufbewahrung',
        detail: 'Name auf Antrag gelöscht (Art. 17 DSGVO)',
      },
      { type: 'signed_elsewhere', actor: 'legal@demo.local', detail: 'gelöscht am 21.11.2036' },
    ]);
    expect(contractHits(await search('Marta Muster'))).toEqual([]);
    // Jana's contract is not due yet.
    expect((await recordOf(janaRecord)).counterparty).toBe('Jana Kowalski IT-Beratung');
  });

  it('erases a signer at once where the signed PDF is gone already', async () => {
    const result = await erase({ name: 'Otto Ohnefrist' });
    expect(result.erased).toContainEqual({ what: 'Laufende Verträge (Person ersetzt)', count: 1 });
    expect(result.retained.filter((r) => r.id === ottoRecord)).toEqual([]);
    expect((await recordOf(ottoRecord)).signed_by).toMatch(/^gelöscht am \d\d\.\d\d\.\d{4}$/);
    expect(contractHits(await search('Otto Ohnefrist'))).toEqual([]);
  });

  it('replaces the partner and the consultant in the record once their envelope’s files are deleted', async () => {
    const { completed_at } = await db
      .selectFrom('envelopes')
      .select('completed_at')
      .where('id', '=', janaEnvelope)
      .executeTakeFirstOrThrow();
    clock = new Date(tenYearsAfter(completed_at as Date).getTime() + 24 * 60 * 60_000);
    const day = clock.toLocaleDateString('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    });
    const run = await deletionRun();
    expect(run).toMatchObject({ completed_contracts: 1 });
    const record = await recordOf(janaRecord);
    expect(record).toMatchObject({
      counterparty: `gelöscht am ${day} IT-Beratung`,
      consultant: `gelöscht am ${day}`,
      customer: 'Elbwerk Logistik AG',
      end_date: '2027-06-30',
    });
    expect(record.parties.map((p) => p.name)).toContain(`gelöscht am ${day} IT-Beratung`);
    expect(record.parties.every((p) => typeof p.role === 'string' && p.role.length > 0)).toBe(true);
    expect(contractHits(await search(JANA.name))).toEqual([]);
    expect(contractHits(await search('Anna Albrecht'))).toEqual([]);
  });
});
