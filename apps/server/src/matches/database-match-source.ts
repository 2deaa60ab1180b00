import { type ResolvedMatch, resolveMatch } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MatchSource } from './match-source.js';

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
}
