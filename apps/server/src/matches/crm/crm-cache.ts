import type { MatchAnswer, ResolvedMatch } from '@vertragsgenerator/domain';
import type { Db } from '../../db/database.js';

/** Rows per statement: three parameters each when written, one per ID when read (PostgreSQL allows 65,535). */
const ROWS_PER_STATEMENT = 500;

/** The CRM's last answer per match (CRM_CACHE_SECONDS), which stands in while the CRM cannot answer. */
export class CrmMatchCache {
  constructor(private readonly db: Db) {}

  async save({ matchId, ...fields }: ResolvedMatch): Promise<void> {
    const row = { match_id: matchId, record: JSON.stringify(fields), fetched_at: new Date() };
    await this.db
      .insertInto('crm_match_cache')
      .values(row)
      .onConflict((oc) =>
        oc.column('match_id').doUpdateSet({ record: row.record, fetched_at: row.fetched_at }),
      )
      .execute();
  }

  /** Several matches in one statement per 500; a match given twice is stored once, the later one. */
  async saveMany(matches: readonly ResolvedMatch[]): Promise<void> {
    const fetchedAt = new Date();
    const rows = [...new Map(matches.map((match) => [match.matchId, match])).values()].map(
      ({ matchId, ...fields }) => ({
        match_id: matchId,
        record: JSON.stringify(fields),
        fetched_at: fetchedAt,
      }),
    );
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await this.db
        .insertInto('crm_match_cache')
        .values(rows.slice(start, start + ROWS_PER_STATEMENT))
        .onConflict((oc) =>
          oc.column('match_id').doUpdateSet((eb) => ({
            record: eb.ref('excluded.record'),
            fetched_at: eb.ref('excluded.fetched_at'),
          })),
        )
        .execute();
    }
  }

  /** The stored match with its fetch time as `cachedAt`, when it is at most `maxAgeSeconds` old. */
  async find(matchId: string, maxAgeSeconds: number): Promise<MatchAnswer | undefined> {
    const row = await this.db
      .selectFrom('crm_match_cache')
      .select(['record', 'fetched_at'])
      .where('match_id', '=', matchId)
      .where('fetched_at', '>=', new Date(Date.now() - maxAgeSeconds * 1000))
      .executeTakeFirst();
    return row && { ...row.record, matchId, cachedAt: row.fetched_at.toISOString() };
  }

  /** `find` for many IDs, one query per 500: the matches stored and young enough, by ID. */
  async findMany(matchIds: readonly string[], maxAgeSeconds: number): Promise<Map<string, MatchAnswer>> {
    const ids = [...new Set(matchIds)];
    const since = new Date(Date.now() - maxAgeSeconds * 1000);
    const found = new Map<string, MatchAnswer>();
    for (let start = 0; start < ids.length; start += ROWS_PER_STATEMENT) {
      const rows = await this.db
        .selectFrom('crm_match_cache')
        .select(['match_id', 'record', 'fetched_at'])
        .where('match_id', 'in', ids.slice(start, start + ROWS_PER_STATEMENT))
        .where('fetched_at', '>=', since)
        .execute();
      for (const row of rows)
        found.set(row.match_id, {
          ...row.record,
          matchId: row.match_id,
          cachedAt: row.fetched_at.toISOString(),
        });
    }
    return found;
  }
}
