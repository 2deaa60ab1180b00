import type { Db } from '../db/database.js';

/**
 * The match each user loaded most recently (`POST /backend/match`). Kept apart from the match
 * source because it is the same for the built-in store and an external CRM.
 */
export class RecentMatchesRepository {
  constructor(private readonly db: Db) {}

  async record(email: string, matchId: string): Promise<void> {
    const now = new Date();
    await this.db
      .insertInto('recent_matches')
      .values({ email, match_id: matchId, loaded_at: now })
      .onConflict((oc) => oc.column('email').doUpdateSet({ match_id: matchId, loaded_at: now }))
      .execute();
  }

  async latest(email: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('recent_matches')
      .select('match_id')
      .where('email', '=', email)
      .executeTakeFirst();
    return row?.match_id;
  }
}
