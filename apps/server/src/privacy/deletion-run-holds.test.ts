import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { LegalHolds } from './legal-holds.js';
import { RetentionRules } from './retention-rules.js';

const DAY = 24 * 60 * 60_000;
const NOW = new Date('2030-06-15T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const quiet = { error() {}, warn() {}, info() {} } as never;
const noMatches = { find: async () => undefined, findMany: async () => new Map() };

/** What each rule would delete of a match: a draft, an ended envelope, a completed contract, a letter, a mail. */
async function dueItems(db: Db, matchId: string) {
  const draft = await storeDocument(db, { matchId, createdAt: daysAgo(91) });
  await storeEnvelope(db, { documentId: draft, matchId, status: 'created', createdAt: daysAgo(91) });
  const ended = await storeDocument(db, { matchId, createdAt: daysAgo(400) });
  await storeEnvelope(db, {
    documentId: ended,
    matchId,
    status: 'declined',
    createdAt: daysAgo(400),
    updatedAt: daysAgo(200),
  });
  const completed = await storeDocument(db, { matchId, createdAt: new Date('2019-01-01T00:00:00Z') });
  const contract = await storeEnvelope(db, {
    documentId: completed,
    matchId,
    status: 'completed',
    createdAt: new Date('2019-01-01T00:00:00Z'),
    completedAt: new Date('2020-01-01T00:00:00Z'),
  });
  const letter = await storeDocument(db, { matchId, createdAt: new Date('2024-01-01T00:00:00Z') });
  const mail = await db
    .insertInto('outgoing_mail')
    .values({
      recipient: 'p@x.example',
      subject: `Vertrag ${matchId}`,
      body: 'b',
      reference: `envelope:${contract}`,
      sent_at: daysAgo(31),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { documents: { draft, ended, completed, letter }, mail: mail.id };
}

/** A legal hold stops every rule for its match, each kind of item alike, until it is lifted. */
describe.each(testDatabases())('a legal hold against every rule on $name', (database) => {
  let db: Db;
  let audit: AuditLog;
  let rules: RetentionRules;
  let holds: LegalHolds;
  const run = () => new DeletionRun({ db, audit, rules, log: quiet, now: () => NOW }).run();
  const documentsLeft = async (ids: string[]) =>
    (await db.selectFrom('documents').select('id').where('id', 'in', ids).execute()).length;
  const mailLeft = async (id: string) =>
    (await db.selectFrom('outgoing_mail').select('id').where('id', '=', id).execute()).length;

  beforeAll(async () => {
    db = await database.open();
    audit = new AuditLog(db);
    rules = new RetentionRules(db, audit, () => NOW);
    holds = new LegalHolds(db, audit, noMatches, () => NOW);
  });
  afterAll(() => db.destroy());

  it('keeps a held match’s draft, ended envelope, completed contract, letter and mail, deletes another’s, and lets them go once lifted', async () => {
    const held = await dueItems(db, 'PL-91');
    const free = await dueItems(db, 'PL-92');
    const hold = await holds.place('ops@demo.local', 'PL-91', 'Rechtsstreit', quiet);

    const counts = await run();
    expect(counts).toMatchObject({
      envelope_drafts: 1,
      ended_envelopes: 1,
      completed_contracts: 1,
      generated_documents: 1,
      mails: 1,
    });
    expect(await documentsLeft(Object.values(free.documents))).toBe(0);
    expect(await mailLeft(free.mail)).toBe(0);
    expect(await documentsLeft(Object.values(held.documents))).toBe(4);
    expect(await mailLeft(held.mail)).toBe(1);

    await holds.lift('ops@demo.local', hold.id);
    await run();
    expect(await documentsLeft(Object.values(held.documents))).toBe(0);
    expect(await mailLeft(held.mail)).toBe(0);
  });
});
