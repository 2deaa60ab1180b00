import { isDeepStrictEqual } from 'node:util';
import type { MatchRecord } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

// Each row binds three parameters; PostgreSQL allows 65,535 per statement.
const ROWS_PER_STATEMENT = 1_000;

/** Writes to the built-in match store: the import CLI and the demo data. */
export class MatchStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts new matches and replaces the fields of known ones, all in one transaction, so that a file
   * is imported entirely or not at all. A later record with the same ID wins, as if written one by one.
   */
  async upsertMany(
    records: readonly MatchRecord[],
    /** Further writes of the same transaction, e.g. the import's audit entry. */
    alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<number> {
    const byId = new Map(records.map((record) => [record.matchId, record]));
    const now = new Date();
    const rows = [...byId.values()].map(({ matchId, ...fields }) => ({
      match_id: matchId,
      record: JSON.stringify(fields),
      updated_at: now,
    }));
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        await trx
          .insertInto('matches')
          .values(rows.slice(start, start + ROWS_PER_STATEMENT))
          .onConflict((oc) =>
            oc.column('match_id').doUpdateSet((eb) => ({
              record: eb.ref('excluded.record'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
      await alsoInTransaction?.(trx);
    });
    return rows.length;
  }

  /**
   * What an import of these records would do: how many IDs are new, and how many known ones it would
   * change or leave as they are (a dry run of `upsertMany`, read-only).
   */
  async classify(
    records: readonly MatchRecord[],
  ): Promise<{ new: number; changed: number; unchanged: number }> {
    const byId = new Map(records.map((record) => [record.matchId, record]));
    const ids = [...byId.keys()];
    const counts = { new: 0, changed: 0, unchanged: 0 };
    for (let start = 0; start < ids.length; start += ROWS_PER_STATEMENT) {
      const chunk = ids.slice(start, start + ROWS_PER_STATEMENT);
      const stored = await this.db
        .selectFrom('matches')
        .select(['match_id', 'record'])
        .where('match_id', 'in', chunk)
        .execute();
      const storedById = new Map(stored.map((row) => [row.match_id, row.record]));
      for (const id of chunk) {
        const known = storedById.get(id);
        if (!known) counts.new += 1;
        else {
          // Compared as JSON, as stored: a field left out equals a field that is missing.
          const { matchId: _, ...fields } = byId.get(id) as MatchRecord;
          if (isDeepStrictEqual(JSON.parse(JSON.stringify(fields)), known)) counts.unchanged += 1;
          else counts.changed += 1;
        }
      }
    }
    return counts;
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('matches').select('match_id').limit(1).executeTakeFirst();
    return row === undefined;
  }
}
