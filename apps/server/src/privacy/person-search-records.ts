import type { PersonHit, PersonSource } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Keeps at most the limit of a source's rows and notes a source cut there. */
export type Capped = <T>(source: PersonSource, rows: T[]) => T[];

/**
 * The records of approvals and webhooks that name a person: an approval request's send (its
 * recipients), who asked and the customer; a decision's approver and comment; a webhook event's payload
 * (it names the signers).
 */
export async function searchApprovalsAndWebhooks(
  db: Db,
  like: string,
  limit: number,
  capped: Capped,
): Promise<PersonHit[]> {
  const hits: PersonHit[] = [];
  for (const row of capped(
    'approval_request',
    await db
      .selectFrom('approval_requests')
      .select(['id', 'match_id', 'file_name', 'status', 'requested_by_name', 'customer'])
      .where((eb) =>
        eb.or([
          sql<boolean>`send_request::text ilike ${like}`,
          eb('requested_by', 'ilike', like),
          eb('requested_by_name', 'ilike', like),
          eb('customer', 'ilike', like),
        ]),
      )
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'approval_request',
      id: row.id,
      matchId: row.match_id,
      where: `Freigabe-Anfrage für ${row.file_name} · Status ${row.status}`,
      value: `angefragt von ${row.requested_by_name} · Kunde ${row.customer}`,
    });
  }
  for (const row of capped(
    'approval_decision',
    await db
      .selectFrom('approval_decisions as d')
      .innerJoin('approval_requests as r', 'r.id', 'd.request_id')
      .select(['d.request_id', 'd.decision', 'd.decided_by_name', 'd.comment', 'r.match_id', 'r.file_name'])
      .where((eb) =>
        eb.or([
          eb('d.decided_by', 'ilike', like),
          eb('d.decided_by_name', 'ilike', like),
          eb('d.comment', 'ilike', like),
        ]),
      )
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'approval_decision',
      id: row.request_id,
      matchId: row.match_id,
      where: `Entscheidung (${row.decision}) über ${row.file_name}`,
      value: [row.decided_by_name, row.comment].filter(Boolean).join(' · '),
    });
  }
  for (const row of capped(
    'webhook_event',
    await db
      .selectFrom('webhook_events')
      .select(['id', 'type', 'created_at', sql<string | null>`payload->'data'->>'matchId'`.as('match_id')])
      .where(sql<boolean>`payload::text ilike ${like}`)
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'webhook_event',
      id: row.id,
      matchId: row.match_id,
      where: `Webhook-Ereignis ${row.type} vom ${row.created_at.toISOString().slice(0, 10)}`,
      value: row.type,
    });
  }
  return hits;
}
