import { type LegalHold, normalizeMatchId } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { matchIdProblem } from '../matches/match-id.js';
import { findMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import { HttpError, notFound } from '../shared/http-error.js';

/** SQL: the matches under a legal hold that is not lifted; nothing of theirs is deleted by a rule. */
export const heldMatches = sql`(select match_id from legal_holds where lifted_at is null)`;

/**
 * Legal holds: an administrator stops every deletion for a match (a dispute, an audit) with a reason,
 * and lifts it later; both are on record in the hold and in the audit log.
 */
export class LegalHolds {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly matches: MatchSource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Active holds first, then the lifted ones, newest first. */
  async list(): Promise<LegalHold[]> {
    const rows = await this.db
      .selectFrom('legal_holds')
      .selectAll()
      .orderBy(sql`lifted_at is null`, 'desc')
      .orderBy('placed_at', 'desc')
      .limit(200)
      .execute();
    return rows.map(toHold);
  }

  /**
   * A match is known when the match source has it or documents of it are stored: a match the CRM has
   * forgotten may still hold contracts worth keeping.
   */
  async place(
    actor: string,
    typedMatchId: string,
    reason: string,
    log: FastifyBaseLogger,
  ): Promise<LegalHold> {
    const matchId = normalizeMatchId(typedMatchId);
    const problem = matchIdProblem(matchId);
    if (problem) throw new HttpError(400, 'invalid_input', problem, { matchId: [problem] });
    const stored = await this.db
      .selectFrom('documents')
      .select('id')
      .where('match_id', '=', matchId)
      .limit(1)
      .executeTakeFirst();
    if (!stored && !(await findMatch(this.matches, matchId, log))) {
      throw notFound(`Das Match ${matchId} gibt es nicht: eine Sperre braucht ein bestehendes Match.`);
    }
    return this.db.transaction().execute(async (trx) => {
      const active = await trx
        .selectFrom('legal_holds')
        .select('id')
        .where('match_id', '=', matchId)
        .where('lifted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (active) {
        throw new HttpError(409, 'hold_exists', `Für ${matchId} besteht bereits eine Aufbewahrungssperre.`);
      }
      const row = await trx
        .insertInto('legal_holds')
        .values({ match_id: matchId, reason, placed_by: actor, placed_at: this.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.audit.record({ actor, action: 'legal_hold.place', subject: matchId, newValue: reason }, trx);
      return toHold(row);
    });
  }

  async lift(actor: string, id: string): Promise<LegalHold> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('legal_holds')
        .set({ lifted_by: actor, lifted_at: this.now() })
        .where('id', '=', id)
        .where('lifted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Diese Aufbewahrungssperre gibt es nicht oder sie ist schon aufgehoben.');
      await this.audit.record(
        { actor, action: 'legal_hold.lift', subject: row.match_id, oldValue: row.reason },
        trx,
      );
      return toHold(row);
    });
  }
}

function toHold(row: {
  id: string;
  match_id: string;
  reason: string;
  placed_by: string;
  placed_at: Date;
  lifted_by: string | null;
  lifted_at: Date | null;
}): LegalHold {
  return {
    id: row.id,
    matchId: row.match_id,
    reason: row.reason,
    placedBy: row.placed_by,
    placedAt: row.placed_at.toISOString(),
    liftedBy: row.lifted_by,
    liftedAt: row.lifted_at ? row.lifted_at.toISOString() : null,
  };
}
