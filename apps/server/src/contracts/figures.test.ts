import { randomUUID } from 'node:crypto';
import {
  type ContractFigures,
  contractFiguresQuerySchema,
  contractFiguresSchema,
} from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { fillLeadTimes } from '../db/migrations/0030_contract_lead_times.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { ContractRecorder } from './contract-recorder.js';
import { addMonths, contractFigures } from './figures.js';

/**
 * Every figure of /auswertung against a small data set inserted with known times, the expected values
 * worked out by hand. The day is 15 June 2026 in Berlin (summer time, UTC+2): the months back are
 * 2025-07 … 2026-06, the months ahead 2026-06 … 2027-05.
 */
const NOW = new Date('2026-06-15T10:00:00Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (iso: string, plusMs = 0) => new Date(new Date(iso).getTime() + plusMs);

const figures = (db: Db, query: Record<string, string> = {}) =>
  contractFigures(db, contractFiguresQuerySchema.parse(query), NOW);

async function insertDocument(db: Db, key: string, createdAt: Date): Promise<string> {
  const id = randomUUID();
  await sql`insert into documents (id, match_id, doc_key, form, created_by, created_at, status, file_name, data, data_sha256)
    values (${id}, 'PL-10001', ${key}, 'docusign', 'legal@demo.local', ${createdAt}, 'ready', 'Vertrag.docx', '{}', 'test')`.execute(
    db,
  );
  return id;
}

interface EnvelopeSpec {
  key: string;
  status: 'created' | 'sent' | 'completed' | 'declined';
  documentCreated?: Date;
  completedAt?: Date;
  /** The `sent` events, in days after the document's creation. */
  sentAfterDays?: number[];
}

async function insertEnvelope(db: Db, spec: EnvelopeSpec): Promise<string> {
  const created = spec.documentCreated ?? at('2026-01-01T08:00:00Z');
  const documentId = await insertDocument(db, spec.key, created);
  const id = randomUUID();
  await sql`insert into envelopes (id, document_id, document_version, document_sha256, match_id, doc_key, provider,
      status, subject, message, sender_name, sender_email, created_by, created_at, completed_at)
    values (${id}, ${documentId}, 1, 'test', 'PL-10001', ${spec.key}, 'builtin', ${spec.status}, 'Vertrag', '',
      'Legal', 'legal@demo.local', 'legal@demo.local', ${created}, ${spec.completedAt ?? null})`.execute(db);
  for (const days of spec.sentAfterDays ?? [])
    await event(db, id, 'sent', at(created.toISOString(), days * DAY));
  return id;
}

async function event(db: Db, envelopeId: string, type: string, when: Date, detail: string | null = null) {
  await sql`insert into envelope_events (envelope_id, type, actor, detail, at)
    values (${envelopeId}, ${type}, 'someone@example.com', ${detail}, ${when})`.execute(db);
}

async function recipient(db: Db, envelopeId: string, role: string, routingOrder: number, status: string) {
  await sql`insert into envelope_recipients (envelope_id, position, role, name, email, routing_order, status)
    values (${envelopeId}, ${routingOrder * 10 + role.length}, ${role}, ${role}, ${`${role.toLowerCase()}@example.com`},
      ${routingOrder}, ${status})`.execute(db);
}

interface RecordSpec {
  kind: string;
  company: string;
  endDate: string | null;
  envelopeId?: string;
  terminatedBy?: string;
  supersededBy?: string;
}

/**
 * A record as the tests need it: signed elsewhere with its own document, or for an envelope — then with
 * the envelope's document, its first sending and its completion, as the recorder writes them.
 */
async function insertRecord(db: Db, spec: RecordSpec): Promise<string> {
  const id = randomUUID();
  const key = `de-${spec.company}-pp-ev`;
  const documentId = await insertDocument(db, key, at('2025-01-01T08:00:00Z'));
  const envelope = spec.envelopeId ?? null;
  await sql`insert into contract_records (id, source_kind, envelope_id, document_id, document_version, match_id, doc_key,
      kind, company, partner_type, language, counterparty, customer, consultant, parties, terms_source, end_date,
      notice_rule_source, terminated_by, superseded_by, signed_at, generated_at, first_sent_at)
    select ${id}, ${envelope ? 'envelope' : 'signed_elsewhere'}, ${envelope}, coalesce(e.document_id, d.id), 1,
      'PL-10001', ${key}, ${spec.kind}, ${spec.company}, 'pp', 'de', 'Partner GmbH',
      'Kunde AG', 'Berta Berater', '[]', 'document', ${spec.endDate}, 'missing', ${spec.terminatedBy ?? null},
      ${spec.supersededBy ?? null}, coalesce(e.completed_at, ${at('2025-01-02T08:00:00Z')}),
      coalesce(ed.created_at, d.created_at),
      (select min(ev.at) from envelope_events ev where ev.envelope_id = e.id and ev.type = 'sent')
    from documents d
    left join envelopes e on e.id = ${envelope}
    left join documents ed on ed.id = e.document_id
    where d.id = ${documentId}`.execute(db);
  return id;
}

async function insertApproval(db: Db, key: string, requestedAt: Date, decidedAfterHours: number | null) {
  const documentId = await insertDocument(db, key, at(requestedAt.toISOString(), -HOUR));
  const id = randomUUID();
  await sql`insert into approval_requests (id, document_id, document_version, document_sha256, match_id, doc_key,
      file_name, requested_by, requested_by_name, requested_at, reasons, rules, status)
    values (${id}, ${documentId}, 1, 'test', 'PL-10001', ${key}, 'Vertrag.docx', 'berater@demo.local', 'Berta',
      ${requestedAt}, '[]', '{}', ${decidedAfterHours === null ? 'open' : 'approved'})`.execute(db);
  if (decidedAfterHours !== null)
    await sql`insert into approval_decisions (request_id, decision, decided_by, decided_by_name, decided_at)
      values (${id}, 'approved', 'leitung@demo.local', 'Leitung',
        ${at(requestedAt.toISOString(), decidedAfterHours * HOUR)})`.execute(db);
}

/** Contracts ending: counted from today to the end of May 2027, unless terminated or replaced. */
async function seedEndings(db: Db) {
  const termination = await insertRecord(db, { kind: 'kuendigung', company: 'wm', endDate: '2027-05-31' });
  const framework = await insertRecord(db, { kind: 'rahmenvertrag', company: 'wm', endDate: '2026-06-30' });
  await insertRecord(db, { kind: 'einzelauftrag', company: 'wm', endDate: '2026-06-15' }); // today
  await insertRecord(db, { kind: 'einzelauftrag', company: 'wm', endDate: '2026-06-14' }); // yesterday: ended
  await insertRecord(db, { kind: 'einzelauftrag', company: 'we', endDate: '2026-07-01' });
  await insertRecord(db, { kind: 'einzelauftrag', company: 'wm', endDate: '2027-06-01' }); // after the 12 months
  await insertRecord(db, {
    kind: 'einzelauftrag',
    company: 'wm',
    endDate: '2026-08-10',
    terminatedBy: termination,
  });
  await insertRecord(db, {
    kind: 'rahmenvertrag',
    company: 'wm',
    endDate: '2026-08-20',
    supersededBy: framework,
  });
  await insertRecord(db, { kind: 'einzelauftrag', company: 'wm', endDate: null });
}

/**
 * Completed envelopes and their contract records. May 2026: days to completed 1, 2, 3, 4, 10 and to the
 * first sending 0.5, 1, 1, 2, 3 (E3 sent twice: the first counts). E5's record says Verlängerung; the
 * others are recorded as the app records them (ContractRecorder), kind and company from their keys.
 */
async function seedLeadTimes(db: Db) {
  const created = (day: string) => at(`${day}T08:00:00Z`);
  const completed = (createdOn: string, days: number) => at(`${createdOn}T08:00:00Z`, days * DAY);
  const envelope = (key: string, createdOn: string, toCompleted: number, sent: number[]) =>
    insertEnvelope(db, {
      key,
      status: 'completed',
      documentCreated: created(createdOn),
      completedAt: completed(createdOn, toCompleted),
      sentAfterDays: sent,
    });
  await envelope('de-wm-k-ev-1', '2026-05-10', 1, [0.5]);
  await envelope('de-wm-pp-rv', '2026-05-10', 2, [1]);
  await envelope('de-we-pp-ev', '2026-05-10', 3, [2.5, 1]);
  await envelope('de-we-k-ev-1', '2026-05-10', 4, [2]);
  const e5 = await envelope('de-wm-pp-ev', '2026-05-10', 10, [3]);
  await insertRecord(db, { kind: 'verlaengerung', company: 'wm', endDate: '2028-01-01', envelopeId: e5 });
  // 00:30 on 1 June in Berlin: June's, with no sending recorded.
  await insertEnvelope(db, {
    key: 'de-wm-pp-ev',
    status: 'completed',
    documentCreated: at('2026-05-29T22:30:00Z'),
    completedAt: at('2026-05-31T22:30:00Z'),
  });
  // 23:59 on 30 June 2025 in Berlin: before the twelve months; 00:00 on 1 July 2025: the first of them.
  await insertEnvelope(db, {
    key: 'de-wm-pp-ev',
    status: 'completed',
    documentCreated: at('2025-06-27T21:59:00Z'),
    completedAt: at('2025-06-30T21:59:00Z'),
  });
  await insertEnvelope(db, {
    key: 'de-wm-pp-ev',
    status: 'completed',
    documentCreated: at('2025-06-28T22:00:00Z'),
    completedAt: at('2025-06-30T22:00:00Z'),
  });
  // An offer is completed too, but makes no contract: it is not in the contracts' lead times.
  await insertEnvelope(db, {
    key: 'angebot-wm',
    status: 'completed',
    documentCreated: created('2026-05-10'),
    completedAt: completed('2026-05-10', 30),
    sentAfterDays: [20],
  });
  await new ContractRecorder(db, { companies: {} }).recordMissing();
}

/** Freigabe. April 2026 (wm): 1, 2, 4, 8, 24, 48 hours; June 2026 (we, an offer): 3 hours. */
async function seedApprovals(db: Db) {
  for (const hours of [8, 1, 48, 2, 24, 4])
    await insertApproval(db, 'docx-de-wm-rv', at('2026-04-07T07:00:00Z'), hours);
  await insertApproval(db, 'angebot-we', at('2026-06-02T07:00:00Z'), 3);
  await insertApproval(db, 'docx-de-wm-rv', at('2026-06-03T07:00:00Z'), null); // open
  await insertApproval(db, 'docx-de-wm-rv', at('2025-05-03T07:00:00Z'), 5); // before the twelve months
}

/** Sent envelopes and whom they wait for; a draft and a declined envelope wait for nobody. */
async function seedWaiting(db: Db) {
  const w1 = await insertEnvelope(db, { key: 'de-wm-k-ev-1', status: 'sent' });
  await recipient(db, w1, 'Kunde', 1, 'sent');
  await recipient(db, w1, 'Firma', 2, 'waiting');
  const w2 = await insertEnvelope(db, { key: 'de-wm-k-ev-2', status: 'sent' });
  await recipient(db, w2, 'Kunde', 1, 'signed');
  await recipient(db, w2, 'Kunde2', 2, 'opened');
  await recipient(db, w2, 'Firma', 3, 'waiting');
  const w3 = await insertEnvelope(db, { key: 'de-we-pp-ev', status: 'sent' });
  await recipient(db, w3, 'Projektpartner', 1, 'sent');
  await recipient(db, w3, 'CC', 1, 'copy');
  const w4 = await insertEnvelope(db, { key: 'de-we-pp-rv', status: 'sent' });
  await recipient(db, w4, 'Projektpartner', 1, 'signed');
  await recipient(db, w4, 'Firma', 2, 'sent');
  const w5 = await insertEnvelope(db, { key: 'de-wm-k-rv-1', status: 'sent' });
  await recipient(db, w5, 'Kunde', 1, 'sent');
  const draft = await insertEnvelope(db, { key: 'de-wm-k-rv-1', status: 'created' });
  await recipient(db, draft, 'Kunde', 1, 'waiting');
  const declined = await insertEnvelope(db, { key: 'de-wm-k-rv-1', status: 'declined' });
  await recipient(db, declined, 'Kunde', 1, 'declined');
  await recipient(db, declined, 'Kunde2', 1, 'sent');
}

/**
 * Declines: „Preis zu hoch“ 4 (one with blanks around it, one at WE), „Falsches Datum“ 3, „Kein Bedarf“ 2,
 * „Grund A“ … „Grund I“ once each: the top ten end with Grund G, Sonstige are H and I.
 */
async function seedDeclines(db: Db) {
  const wm = await insertEnvelope(db, { key: 'de-wm-pp-ev', status: 'declined' });
  const we = await insertEnvelope(db, { key: 'de-we-pp-ev', status: 'declined' });
  const when = at('2026-03-04T09:00:00Z');
  const reasons = [
    'Preis zu hoch',
    '  Preis zu hoch ',
    'Preis zu hoch',
    ...Array(3).fill('Falsches Datum'),
    'Kein Bedarf',
    'Kein Bedarf',
    ...'ABCDEFGHI'.split('').map((letter) => `Grund ${letter}`),
  ];
  for (const reason of reasons) await event(db, wm, 'declined', when, reason);
  await event(db, we, 'declined', when, 'Preis zu hoch');
  await event(db, wm, 'declined', at('2025-06-01T09:00:00Z'), 'Zu alt'); // before the twelve months
  await event(db, wm, 'signed', when, 'Preis zu hoch'); // not a decline
}

const PAST = [
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-05',
  '2026-06',
];
const NONE = { median: null, p90: null };
const ZERO_KINDS = {
  rahmenvertrag: 0,
  einzelauftrag: 0,
  verlaengerung: 0,
  zusatzvereinbarung: 0,
  kuendigung: 0,
};

describe('months', () => {
  it('moves over year ends both ways', () => {
    expect(addMonths('2026-06', -11)).toBe('2025-07');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-06', 12)).toBe('2027-06');
  });
});

describe.each(testDatabases())('the figures of /auswertung on $name', (database) => {
  let db: Db;
  let all: ContractFigures;

  beforeAll(async () => {
    db = await database.open();
    await seedEndings(db);
    await seedLeadTimes(db);
    await seedApprovals(db);
    await seedWaiting(db);
    await seedDeclines(db);
    all = contractFiguresSchema.parse(await figures(db));
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('counts the contracts ending per month from today, by kind, without terminated or replaced ones', async () => {
    expect(all.today).toBe('2026-06-15');
    expect(all.endings.map((m) => m.month)).toEqual([
      ...PAST.slice(11),
      ...PAST.slice(0, 11).map((m) => addMonths(m, 12)),
    ]);
    const nonZero = all.endings.filter((m) => m.total > 0);
    expect(nonZero).toEqual([
      { month: '2026-06', total: 2, byKind: { ...ZERO_KINDS, einzelauftrag: 1, rahmenvertrag: 1 } },
      { month: '2026-07', total: 1, byKind: { ...ZERO_KINDS, einzelauftrag: 1 } },
      { month: '2027-05', total: 1, byKind: { ...ZERO_KINDS, kuendigung: 1 } },
    ]);
    const wm = await figures(db, { company: 'wm' });
    expect(wm.endings.filter((m) => m.total > 0).map((m) => [m.month, m.total])).toEqual([
      ['2026-06', 2],
      ['2027-05', 1],
    ]);
    const three = await figures(db, { months: '3' });
    expect(three.endings.map((m) => [m.month, m.total])).toEqual([
      ['2026-06', 2],
      ['2026-07', 1],
      ['2026-08', 0],
    ]);
  });

  it('gives median and p90 of the days to sent and to completed per month of completion', () => {
    expect(all.leadTimes.all.map((m) => m.month)).toEqual(PAST);
    const month = (m: string) => all.leadTimes.all.find((entry) => entry.month === m);
    // [1, 2, 3, 4, 10]: median 3, p90 at 3.6 → 4 + 0.6 × 6 = 7.6; [0.5, 1, 1, 2, 3]: 1 and 2 + 0.6 × 1.
    expect(month('2026-05')).toEqual({
      month: '2026-05',
      count: 5,
      toSent: { median: 1, p90: 2.6 },
      toCompleted: { median: 3, p90: 7.6 },
    });
    expect(month('2026-06')).toEqual({
      month: '2026-06',
      count: 1,
      toSent: NONE,
      toCompleted: { median: 2, p90: 2 },
    });
    expect(month('2025-07')).toEqual({
      month: '2025-07',
      count: 1,
      toSent: NONE,
      toCompleted: { median: 2, p90: 2 },
    });
    expect(month('2026-04')).toEqual({ month: '2026-04', count: 0, toSent: NONE, toCompleted: NONE });
  });

  it('splits the lead times by the records’ company and kind', () => {
    expect(all.leadTimes.byCompany.filter((row) => row.month === '2026-05')).toEqual([
      // WE [3, 4] and [1, 2]: p90 at 0.9; WM [1, 2, 10] and [0.5, 1, 3]: p90 at 1.8.
      {
        month: '2026-05',
        company: 'we',
        count: 2,
        toSent: { median: 1.5, p90: 1.9 },
        toCompleted: { median: 3.5, p90: 3.9 },
      },
      {
        month: '2026-05',
        company: 'wm',
        count: 3,
        toSent: { median: 1, p90: 2.6 },
        toCompleted: { median: 2, p90: 8.4 },
      },
    ]);
    expect(all.leadTimes.byKind.filter((row) => row.month === '2026-05')).toEqual([
      {
        month: '2026-05',
        kind: 'rahmenvertrag',
        count: 1,
        toSent: { median: 1, p90: 1 },
        toCompleted: { median: 2, p90: 2 },
      },
      // [1, 3, 4] and [0.5, 1, 2]: p90 at 1.8.
      {
        month: '2026-05',
        kind: 'einzelauftrag',
        count: 3,
        toSent: { median: 1, p90: 1.8 },
        toCompleted: { median: 3, p90: 3.8 },
      },
      {
        month: '2026-05',
        kind: 'verlaengerung',
        count: 1,
        toSent: { median: 3, p90: 3 },
        toCompleted: { median: 10, p90: 10 },
      },
    ]);
    expect(all.leadTimes.byCompany.map((row) => [row.month, row.company])).toEqual([
      ['2025-07', 'wm'],
      ['2026-05', 'we'],
      ['2026-05', 'wm'],
      ['2026-06', 'wm'],
    ]);
  });

  it('filters the lead times by company', async () => {
    const we = await figures(db, { company: 'we' });
    expect(we.company).toBe('we');
    expect(we.leadTimes.all.filter((m) => m.count > 0)).toEqual([
      {
        month: '2026-05',
        count: 2,
        toSent: { median: 1.5, p90: 1.9 },
        toCompleted: { median: 3.5, p90: 3.9 },
      },
    ]);
  });

  it('fills in the lead times of the records made before they were kept, as migration 0030 does', async () => {
    await sql`update contract_records set generated_at = null, first_sent_at = null`.execute(db);
    const emptied = await figures(db);
    expect(emptied.leadTimes.all.find((m) => m.month === '2026-05')?.toSent).toEqual(NONE);
    await fillLeadTimes(db as never);
    expect((await figures(db)).leadTimes).toEqual(all.leadTimes);
  });

  it('gives median and p90 of the hours from approval request to decision per month of the decision', async () => {
    expect(all.approvals.map((m) => m.month)).toEqual(PAST);
    // [1, 2, 4, 8, 24, 48]: median (4 + 8) / 2 = 6; p90 at 4.5 → 24 + 0.5 × 24 = 36.
    expect(all.approvals.filter((m) => m.count > 0)).toEqual([
      { month: '2026-04', count: 6, hours: { median: 6, p90: 36 } },
      { month: '2026-06', count: 1, hours: { median: 3, p90: 3 } },
    ]);
    const we = await figures(db, { company: 'we' });
    expect(we.approvals.filter((m) => m.count > 0)).toEqual([
      { month: '2026-06', count: 1, hours: { median: 3, p90: 3 } },
    ]);
  });

  it('counts the sent envelopes by the step whose signer they wait for', async () => {
    expect(all.waiting).toEqual([
      { routingOrder: 1, role: 'Kunde', count: 2 },
      { routingOrder: 1, role: 'Projektpartner', count: 1 },
      { routingOrder: 2, role: 'Firma', count: 1 },
      { routingOrder: 2, role: 'Kunde2', count: 1 },
    ]);
    expect((await figures(db, { company: 'wm' })).waiting).toEqual([
      { routingOrder: 1, role: 'Kunde', count: 2 },
      { routingOrder: 2, role: 'Kunde2', count: 1 },
    ]);
  });

  it('counts the declines by trimmed reason, the ten most frequent and the rest as one', async () => {
    expect(all.declines).toEqual([
      { reason: 'Preis zu hoch', count: 4 },
      { reason: 'Falsches Datum', count: 3 },
      { reason: 'Kein Bedarf', count: 2 },
      ...'ABCDEFG'.split('').map((letter) => ({ reason: `Grund ${letter}`, count: 1 })),
      { reason: null, count: 2 },
    ]);
    expect((await figures(db, { company: 'we' })).declines).toEqual([{ reason: 'Preis zu hoch', count: 1 }]);
  });

  it('answers every figure empty for a company without anything', async () => {
    const wp = await figures(db, { company: 'wp' });
    expect(wp.endings.every((m) => m.total === 0)).toBe(true);
    expect(wp.leadTimes.all.every((m) => m.count === 0)).toBe(true);
    expect(wp.leadTimes.byCompany).toEqual([]);
    expect(wp.approvals.every((m) => m.count === 0)).toBe(true);
    expect(wp.waiting).toEqual([]);
    expect(wp.declines).toEqual([]);
  });
});

describe.each(testDatabases())('GET /backend/contract-figures on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const get = (token: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/backend/contract-figures${query}`, headers: bearer(token) });

  it('answers leaders and legal staff, refuses consultants', async () => {
    const [leader, legal, consultant] = await Promise.all([
      t.signIn('leitung@demo.local'),
      t.signIn('legal@demo.local'),
      t.signIn('berater@demo.local'),
    ]);
    const answer = await get(leader, '?company=wm&months=6');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = contractFiguresSchema.parse(answer.json());
    expect(body.company).toBe('wm');
    expect(body.endings).toHaveLength(6);
    expect(body.leadTimes.all).toHaveLength(6);
    expect((await get(legal)).statusCode).toBe(200);
    const refused = await get(consultant);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/[äöüÄÖÜß]|Berechtigung|darf/);
  });

  it('refuses an unknown company or months out of range in German', async () => {
    const leader = await t.signIn('leitung@demo.local');
    const company = await get(leader, '?company=xx');
    expect(company.statusCode).toBe(400);
    expect(company.json().fields.company).toEqual(['Diese Gesellschaft gibt es nicht.']);
    const months = await get(leader, '?months=25');
    expect(months.statusCode).toBe(400);
    expect(months.json().fields.months).toEqual(['Höchstens 24 Monate.']);
  });
});
