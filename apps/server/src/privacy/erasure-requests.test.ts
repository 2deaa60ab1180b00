import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { ErasureFollowUp } from './erasure-requests.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { LegalHolds } from './legal-holds.js';
import { PersonErasure } from './person-erase.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const ERASED = /^gelöscht am \d\d\.\d\d\.\d{4}$/;
const CLARA = { name: 'Clara Contract', email: 'clara@contract.example' };
const quiet = { error() {}, warn() {}, info() {} } as never;
const noMatches = { find: async () => undefined, findMany: async () => new Map() };

/**
 * What an erase leaves to a duty goes when the duty ends, as its answer said: the signer of a completed
 * contract once the contract's files are deleted ten years after completion, and what a legal hold kept
 * once it is lifted. The erase request is on record for the run to do so.
 */
describe.each(testDatabases())('an erase applied when its duty ends on $name', (database) => {
  let db: Db;
  let audit: AuditLog;
  let now = new Date('2026-06-01T12:00:00Z');
  let contract: string;
  let heldEnvelope: string;
  let approval: string;
  let holds: LegalHolds;
  let run: () => Promise<Record<string, number> | undefined>;

  const recipientOf = (envelopeId: string) =>
    db
      .selectFrom('envelope_recipients')
      .select(['name', 'email', 'typed_name'])
      .where('envelope_id', '=', envelopeId)
      .executeTakeFirstOrThrow();
  const eventsOf = (envelopeId: string) =>
    db
      .selectFrom('envelope_events')
      .select(['type', 'actor', 'detail'])
      .where('envelope_id', '=', envelopeId)
      .where('type', 'in', ['signed', 'declined'])
      .execute();

  beforeAll(async () => {
    db = await database.open();
    audit = new AuditLog(db);
    const rules = new RetentionRules(db, audit, () => now);
    holds = new LegalHolds(db, audit, noMatches, () => now);
    const erasure = new PersonErasure({
      db,
      audit,
      search: new PersonSearch(db),
      rules,
      configuredAdministrators: new Set(),
      now: () => now,
    });
    run = () =>
      new DeletionRun({
        db,
        audit,
        rules,
        log: quiet,
        now: () => now,
        followUp: new ErasureFollowUp(db, erasure, () => now),
      }).run();

    const document = await storeDocument(db, {
      matchId: 'PL-71',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    contract = await storeEnvelope(db, {
      documentId: document,
      matchId: 'PL-71',
      status: 'completed',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      completedAt: new Date('2026-01-15T00:00:00Z'),
      recipients: [CLARA],
    });
    const heldDocument = await storeDocument(db, {
      matchId: 'PL-72',
      createdAt: new Date('2026-02-01T00:00:00Z'),
    });
    heldEnvelope = await storeEnvelope(db, {
      documentId: heldDocument,
      matchId: 'PL-72',
      status: 'declined',
      createdAt: new Date('2026-02-01T00:00:00Z'),
      recipients: [{ ...CLARA, status: 'declined' }],
    });
    for (const [envelopeId, type, detail] of [
      [contract, 'signed', `Getippter Name: ${CLARA.name}`],
      [heldEnvelope, 'declined', 'Kein Interesse mehr'],
    ] as const) {
      const recipient = await db
        .selectFrom('envelope_recipients')
        .select('id')
        .where('envelope_id', '=', envelopeId)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('envelope_events')
        .values({ envelope_id: envelopeId, recipient_id: recipient.id, type, actor: CLARA.email, detail })
        .execute();
    }
    await holds.place('ops@demo.local', 'PL-72', 'Rechtsstreit', quiet);
    // The contract's approval names her among the recipients of its send.
    approval = (
      await db
        .insertInto('approval_requests')
        .values({
          envelope_id: contract,
          document_id: document,
          document_version: 1,
          document_sha256: 'x',
          match_id: 'PL-71',
          doc_key: 'de-wm-pp-rv',
          file_name: 'Vertrag.docx',
          requested_by: 'berater@demo.local',
          requested_by_name: 'Berta Berater',
          reasons: '[]',
          rules: '{}',
          send_request: JSON.stringify({ recipients: [{ role: 'Projektpartner', ...CLARA }] }),
          status: 'approved',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

    const result = await erasure.erase('ops@demo.local', { email: CLARA.email });
    expect(result.retained).toContainEqual(
      expect.objectContaining({
        what: `Unterschrift im Umschlag ${contract}`,
        until: '2036-01-15T00:00:00.000Z',
      }),
    );
  });
  afterAll(() => db.destroy());

  it('records the request with whom, when, by whom and what a duty keeps', async () => {
    const { rows } = await sql<{ email: string; name: string | null; erased_by: string; pending: unknown }>`
      select email, name, erased_by, pending from person_erasures`.execute(db);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ email: CLARA.email, name: null, erased_by: 'ops@demo.local' });
    const pending = typeof row?.pending === 'string' ? JSON.parse(row.pending) : row?.pending;
    expect(pending.holds).toEqual(['PL-72']);
    expect(pending.recipients).toHaveLength(1);
    expect(pending.contracts).toEqual([contract]);
  });

  it('keeps the signer while the contract is kept, and anonymises them once its files go', async () => {
    now = new Date('2035-12-01T00:00:00Z');
    await run();
    expect((await recipientOf(contract)).name).toBe(CLARA.name);
    expect(
      JSON.stringify(
        (
          await db
            .selectFrom('approval_requests')
            .select('send_request')
            .where('id', '=', approval)
            .executeTakeFirstOrThrow()
        ).send_request,
      ),
    ).toContain(CLARA.email);

    now = new Date('2036-01-16T00:00:00Z');
    const counts = await run();
    expect(counts).toMatchObject({ completed_contracts: 1, erase_request: 2 });
    const signer = await recipientOf(contract);
    expect(signer.name).toMatch(ERASED);
    expect(signer.email).toMatch(ERASED);
    expect(signer.typed_name).toBeNull();
    const [signed] = await eventsOf(contract);
    expect(signed?.actor).toMatch(ERASED);
    expect(signed?.detail).toMatch(ERASED);
    const send = await db
      .selectFrom('approval_requests')
      .select('send_request')
      .where('id', '=', approval)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(send.send_request)).not.toMatch(/clara/i);
    expect(JSON.stringify(send.send_request)).toMatch(/gelöscht am \d\d\.\d\d\.\d{4}/);
    // The held match is still as it was.
    expect((await recipientOf(heldEnvelope)).name).toBe(CLARA.name);
  });

  it('erases what the hold kept once it is lifted, and then has nothing left to do', async () => {
    const [hold] = await holds.list();
    await holds.lift('ops@demo.local', hold?.id ?? '');
    now = new Date('2036-01-17T00:00:00Z');
    await run();
    expect((await recipientOf(heldEnvelope)).name).toMatch(ERASED);
    const [declined] = await eventsOf(heldEnvelope);
    expect(declined?.detail).toMatch(ERASED);
    const { rows } = await sql<{ pending: unknown }>`select pending from person_erasures`.execute(db);
    const pending = typeof rows[0]?.pending === 'string' ? JSON.parse(rows[0].pending) : rows[0]?.pending;
    expect(pending).toEqual({ recipients: [], holds: [], contracts: [], records: [], terms: [] });
  });
});
