import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { storeDocument } from './fixtures.js';
import { PersonErasure } from './person-erase.js';
import { EXPORT_VALID_MS, PersonExports } from './person-export.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const NOW = new Date('2030-06-15T12:00:00Z');
const silent = { error() {}, warn() {}, info() {} };
const quiet = silent as never;

/**
 * An export of a person's data is a download for one request: once it expires the deletion run deletes
 * it, and an erase deletes the exports made of the person at once. A run that fails says so in German.
 */
describe.each(testDatabases())('exports and failed runs on $name', (database) => {
  let db: Db;
  let audit: AuditLog;
  let rules: RetentionRules;
  let search: PersonSearch;
  let now = NOW;

  beforeAll(async () => {
    db = await database.open();
    audit = new AuditLog(db);
    rules = new RetentionRules(db, audit, () => now);
    search = new PersonSearch(db);
  });
  afterAll(() => db.destroy());

  const exportsNow = () => new PersonExports(db, audit, search, undefined, () => now);
  const stored = async () =>
    (await db.selectFrom('person_exports').select('person').orderBy('person').execute()).map((r) => r.person);

  it('deletes the exports past their expiry in the next run, with an audit entry, and keeps a valid one', async () => {
    now = NOW;
    await exportsNow().create('ops@demo.local', 'alt@person.example');
    now = new Date(NOW.getTime() + EXPORT_VALID_MS / 2);
    await exportsNow().create('ops@demo.local', 'neu@person.example');
    now = new Date(NOW.getTime() + EXPORT_VALID_MS + 60_000);

    const counts = await new DeletionRun({ db, audit, rules, log: quiet, now: () => now }).run();
    expect(counts).toEqual({ person_exports: 1 });
    expect(await stored()).toEqual(['neu@person.example']);
    const entries = (await audit.list({ limit: 10 })).filter((e) => e.action === 'retention.delete');
    expect(entries.map((e) => [e.subject, e.newValue])).toEqual([
      ['Abgelaufene Auskünfte (Exporte)', '1 Export'],
    ]);
    await db.deleteFrom('person_exports').execute();
  });

  it('deletes the exports made of a person when they are erased, by address or by the name it goes by', async () => {
    now = NOW;
    await db
      .insertInto('users')
      .values({ email: 'erik@person.example', name: 'Erik Export', permission: 1, updated_at: now })
      .execute();
    await exportsNow().create('ops@demo.local', 'Erik@person.example');
    await exportsNow().create('ops@demo.local', 'erik  export');
    await exportsNow().create('ops@demo.local', 'andere@person.example');
    const erasure = new PersonErasure({
      db,
      audit,
      search,
      rules,
      configuredAdministrators: new Set(),
      now: () => now,
    });
    const result = await erasure.erase('ops@demo.local', { email: 'erik@person.example' });
    expect(result.erased).toContainEqual({ what: 'Auskünfte (Exporte) über die Person', count: 2 });
    expect(await stored()).toEqual(['andere@person.example']);
  });

  it('records a failed run with a German message and logs the cause', async () => {
    now = NOW;
    await storeDocument(db, {
      matchId: 'PL-90',
      createdAt: new Date('2020-01-01T00:00:00Z'),
      status: 'failed',
    });
    const logged: unknown[] = [];
    const log = { ...silent, error: (detail: unknown) => logged.push(detail) } as never;
    const failingAudit = {
      record: async () => Promise.reject(new Error('database gone')),
    } as unknown as AuditLog;
    const failing = new DeletionRun({ db, audit: failingAudit, rules, log, now: () => now });
    await expect(failing.run()).rejects.toThrow('database gone');
    const [last] = await failing.lastRuns(1);
    expect(last?.error).toBe('Abgebrochen; der nächste Lauf setzt fort.');
    expect(logged).toEqual([
      expect.objectContaining({ err: expect.objectContaining({ message: 'database gone' }) }),
    ]);
  });
});
