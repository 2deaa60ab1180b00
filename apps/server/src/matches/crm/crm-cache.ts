import type { MatchAnswer, ResolvedMatch } from '@vertragsgenerator/domain';
import type { Db } from '../../db/database.js';

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
}
