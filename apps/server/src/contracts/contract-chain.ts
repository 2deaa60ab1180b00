import type { ContractKind, ContractRelation } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** What linking a new record needs to know of it. */
export interface ChainMember {
  id: string;
  kind: ContractKind;
  matchId: string;
  company: string;
  partnerType: string;
  counterparty: string;
  signedAt: Date;
}

type Executor = Kysely<Database>;

/** The same counterparty as the CRM spells it, give or take case and spaces. */
const sameCounterparty = (name: string) =>
  sql<boolean>`lower(trim(counterparty)) = ${name.trim().toLowerCase()}`;

/**
 * The record a new one hangs under, and how: an Einzelauftrag under the Rahmenvertrag in force with the
 * same company and counterparty; an extension, change or termination under the deal's Einzelauftrag
 * (its match's newest one not yet terminated), or, for a deal without one, under that Rahmenvertrag.
 */
async function parentOf(
  trx: Executor,
  member: ChainMember,
): Promise<{ id: string; relation: ContractRelation } | undefined> {
  // Of two Rahmenverträge, the newer replaced the older one: take the one not replaced.
  const framework = () =>
    trx
      .selectFrom('contract_records')
      .select('id')
      .where('id', '!=', member.id)
      .where('kind', '=', 'rahmenvertrag')
      .where('company', '=', member.company)
      .where('partner_type', '=', member.partnerType)
      .where(sameCounterparty(member.counterparty))
      .where('superseded_by', 'is', null)
      .where('terminated_by', 'is', null)
      .orderBy('signed_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  if (member.kind === 'rahmenvertrag') return undefined;
  if (member.kind === 'einzelauftrag') {
    const found = await framework();
    return found && { id: found.id, relation: 'under' };
  }
  const relation: ContractRelation = member.kind === 'kuendigung' ? 'ends' : 'changes';
  const order = await trx
    .selectFrom('contract_records')
    .select('id')
    .where('id', '!=', member.id)
    .where('kind', '=', 'einzelauftrag')
    .where('match_id', '=', member.matchId)
    .where('company', '=', member.company)
    .where('partner_type', '=', member.partnerType)
    .where('terminated_by', 'is', null)
    .orderBy('signed_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const found = order ?? (await framework());
  return found && { id: found.id, relation };
}

/**
 * Links a record that was just inserted into its chain, in the insert's transaction: its parent, the
 * parent's end where it terminates it, an older Rahmenvertrag it replaces, and the Einzelaufträge that
 * waited for a Rahmenvertrag of their counterparty (signed before it). Returns the record it terminated,
 * or the one an extension extends (whose end the caller moves).
 */
export async function linkIntoChain(
  trx: Executor,
  member: ChainMember,
): Promise<{ terminated?: string; extended?: string }> {
  const parent = await parentOf(trx, member);
  if (parent) {
    await trx
      .updateTable('contract_records')
      .set({ parent_id: parent.id, relation: parent.relation })
      .where('id', '=', member.id)
      .execute();
    if (parent.relation === 'ends') {
      await trx
        .updateTable('contract_records')
        .set({ terminated_by: member.id })
        .where('id', '=', parent.id)
        .where('terminated_by', 'is', null)
        .execute();
      return { terminated: parent.id };
    }
    if (member.kind === 'verlaengerung') return { extended: parent.id };
  }
  if (member.kind === 'rahmenvertrag') {
    const sameCounterpartyRecords = () =>
      trx
        .updateTable('contract_records')
        .where('id', '!=', member.id)
        .where('company', '=', member.company)
        .where('partner_type', '=', member.partnerType)
        .where(sameCounterparty(member.counterparty));
    await sameCounterpartyRecords()
      .set({ superseded_by: member.id })
      .where('kind', '=', 'rahmenvertrag')
      .where('superseded_by', 'is', null)
      // A Rahmenvertrag signed before the newest one that is recorded later replaces nothing.
      .where('signed_at', '<=', member.signedAt)
      .execute();
    await sameCounterpartyRecords()
      .set({ parent_id: member.id, relation: 'under' })
      .where('kind', '=', 'einzelauftrag')
      .where('parent_id', 'is', null)
      .execute();
  }
  return {};
}

/** One entry of a chain as read: the record's id, its parent and its depth below the top. */
export interface ChainLink {
  id: string;
  parentId: string | null;
  depth: number;
}

/**
 * The whole chain a record belongs to, top-down: up to its top, then every record below that top in
 * the order they were signed. One recursive query each way; chains are short (a handful of records).
 */
export async function chainOf(db: Executor, id: string): Promise<ChainLink[]> {
  const top = await sql<{ id: string }>`
    with recursive up(id, parent_id, hops) as (
      select id, parent_id, 0 from contract_records where id = ${id}
      union all
      select c.id, c.parent_id, up.hops + 1 from contract_records c join up on c.id = up.parent_id where up.hops < 50
    )
    select id from up order by hops desc limit 1`.execute(db);
  const topId = top.rows[0]?.id;
  if (!topId) return [];
  const down = await sql<{ id: string; parent_id: string | null; depth: number; path: string }>`
    with recursive down(id, parent_id, depth, path) as (
      select id, parent_id, 0, to_char(signed_at, 'YYYYMMDDHH24MISSUS') || id::text
        from contract_records where id = ${topId}
      union all
      select c.id, c.parent_id, down.depth + 1,
             down.path || '/' || to_char(c.signed_at, 'YYYYMMDDHH24MISSUS') || c.id::text
        from contract_records c join down on c.parent_id = down.id where down.depth < 50
    )
    select id, parent_id, depth, path from down order by path`.execute(db);
  return down.rows.map((row) => ({ id: row.id, parentId: row.parent_id, depth: Number(row.depth) }));
}
