import type { MatchRecord } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';

// Each row binds three parameters; PostgreSQL allows 65,535 per statement.
const ROWS_PER_STATEMENT = 1_000;

/** Writes to the built-in match store: the import CLI and the demo data. */
export class MatchStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts new matches and replaces the fields of known ones, all in one transaction, so that a file
   * is imported entirely or not at all. A later record with the same ID wins, as if written one by one.
   */
  async upsertMany(records: readonly MatchRecord[]): Promise<number> {
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
    });
    return rows.length;
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('matches').select('match_id').limit(1).executeTakeFirst();
    return row === undefined;
  }
}
