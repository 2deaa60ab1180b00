import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { insertContractRecord } from '../contracts/contract-recorder.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { ErasureFollowUp } from './erasure-requests.js';
import { storeDocument } from './fixtures.js';
import { PersonErasure } from './person-erase.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const quiet = { error() {}, warn() {}, info() {} } as never;
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');

/**
 * A legal hold keeps a contract record as it is: its names and its uploaded signed PDF stay past the
 * rule's date, an erase lists both under the hold, and once the hold is lifted the next run deletes the
 * PDF and finishes the erase.
 */
describe.each(testDatabases())('a contract record under a legal hold on $name', (database) => {
  let db: Db;
  let clock = new Date('2030-06-01T12:00:00Z');
  let record: string;
  let erasure: PersonErasure;
  let run: () => Promise<Record<string, number> | undefined>;

  beforeAll(async () => {
    db = await database.open();
    const audit = new AuditLog(db);
    const rules = new RetentionRules(db, audit, () => clock);
    const search = new PersonSearch(db);
    erasure = new PersonErasure({
      db,
      audit,
      search,
      rules,
      configuredAdministrators: new Set(),
      now: () => clock,
    });
    run = () =>
      new DeletionRun({
        db,
        audit,
        rules,
        log: quiet,
        now: () => clock,
        followUp: new ErasureFollowUp(db, erasure, () => clock),
      }).run();
    await new MatchStore(db).upsertMany([
      {
        matchId: 'PL-91',
        beraterJob: 'Anna Albrecht',
        candidateFirstName: 'Henrik',
        candidateLastName: 'Hold',
        kunde: 'Elbwerk Logistik AG',
        enddatum: '2021-12-31',
      },
    ]);
    const documentId = await storeDocument(db, {
      matchId: 'PL-91',
      createdAt: new Date('2020-01-02T00:00:00Z'),
    });
    const id = await db.transaction().execute((trx) =>
      insertContractRecord(
        trx,
        {
          sourceKind: 'signed_elsewhere',
          envelopeId: null,
          documentId,
          documentVersion: 1,
          matchId: 'PL-91',
          docKey: 'de-wm-pp-rv',
          signedAt: new Date('2020-01-10T12:00:00Z'),
          signedBy: 'Henrik Hold',
          signedPdf: { content: PDF, sha256: sha256Hex(PDF) },
          actor: 'legal@demo.local',
        },
        { companies: {} },
      ),
    );
    expect(id).toBeDefined();
    record = id as string;
    await db
      .insertInto('legal_holds')
      .values({ match_id: 'PL-91', reason: 'Rechtsstreit', placed_by: 'ops@demo.local', placed_at: clock })
      .execute();
  });
  afterAll(() => db.destroy());

  const recordOf = () =>
    db
      .selectFrom('contract_records')
      .select(['counterparty', 'signed_by', 'signed_pdf'])
      .where('id', '=', record)
      .executeTakeFirstOrThrow();

  it('lists the record and its signed PDF under the hold, with no date, and changes nothing', async () => {
    const result = await erasure.erase('ops@demo.local', { name: 'Henrik Hold' });
    expect(
      result.retained.filter((r) => r.id === record).map((r) => [r.what.split(' ')[0], r.rule, r.until]),
    ).toEqual([
      ['Namen', 'Aufbewahrungssperre', null],
      ['Hochgeladenes', 'Aufbewahrungssperre', null],
    ]);
    expect(await recordOf()).toMatchObject({ counterparty: 'Henrik Hold', signed_by: 'Henrik Hold' });
  });

  it('keeps the PDF past the rule’s date while held, and deletes it and erases the signer once lifted', async () => {
    // Ten years after the signature of 10.01.2020 have passed.
    clock = new Date('2030-06-02T12:00:00Z');
    expect((await run())?.completed_contracts ?? 0).toBe(0);
    expect(Buffer.from((await recordOf()).signed_pdf ?? [])).toEqual(Buffer.from(PDF));

    await db.updateTable('legal_holds').set({ lifted_at: clock, lifted_by: 'ops@demo.local' }).execute();
    clock = new Date('2030-06-03T12:00:00Z');
    expect(await run()).toMatchObject({ completed_contracts: 1, erase_request: 1 });
    expect(await recordOf()).toEqual({
      counterparty: 'gelöscht am 03.06.2030',
      signed_by: 'gelöscht am 03.06.2030',
      signed_pdf: null,
    });
    const deleted = await db
      .selectFrom('deletion_records')
      .select(['kind', 'subject_id', 'sha256'])
      .where('kind', '=', 'signed_pdf')
      .execute();
    expect(deleted).toEqual([{ kind: 'signed_pdf', subject_id: record, sha256: sha256Hex(PDF) }]);
  });
});
