import { type ResolvedMatch, resolveMatch } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MatchSource } from './match-source.js';

/** IDs per `where match_id in (…)`: one parameter each, far below PostgreSQL's 65,535 per statement. */
const IDS_PER_QUERY = 500;

/**
 * The built-in match store as match source. An unreachable database surfaces as the driver's error,
 * which the error handler already answers with 503.
 */
export class DatabaseMatchSource implements MatchSource {
  constructor(private readonly db: Db) {}

  async find(matchId: string): Promise<ResolvedMatch | undefined> {
    const row = await this.db
      .selectFrom('matches')
      .select('record')
      .where('match_id', '=', matchId)
      .executeTakeFirst();
    return row && resolveMatch({ ...row.record, matchId });
  }

  /** One query per 500 IDs. The store's records are always readable: no ID answers `MatchUnreadableError`. */
  async findMany(matchIds: readonly string[]): Promise<Map<string, ResolvedMatch | undefined>> {
    const ids = [...new Set(matchIds)];
    const found = new Map<string, ResolvedMatch | undefined>();
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      const chunk = ids.slice(start, start + IDS_PER_QUERY);
      const rows = await this.db
        .selectFrom('matches')
        .select(['match_id', 'record'])
        .where('match_id', 'in', chunk)
        .execute();
      const records = new Map(rows.map((row) => [row.match_id, row.record]));
      for (const matchId of chunk) {
        const record = records.get(matchId);
        found.set(matchId, record && resolveMatch({ ...record, matchId }));
      }
    }
    return found;
  }
}
