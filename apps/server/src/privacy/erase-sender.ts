import {
  dueAt,
  OPEN_ENVELOPE_STATUSES,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Periods } from './document-deletion.js';
import { HOLD_RULE } from './erase-documents.js';

/**
 * A colleague who sent envelopes is named in them as sender and creator, and as the actor of the
 * events they caused. In ended envelopes they are replaced by the label; where a duty keeps the envelope
 * — a held match, a completed contract, a draft or an envelope still running — it is listed with its rule
 * and date. By e-mail address only: a name is not enough to tell two colleagues apart. Returns how many
 * envelopes were changed.
 */
export async function eraseSender(
  trx: Kysely<Database>,
  email: string,
  label: string,
  held: ReadonlySet<string>,
  periods: Periods,
  retained: RetainedItem[],
  scope?: ReadonlySet<string>,
): Promise<number> {
  const rows = await trx
    .selectFrom('envelopes')
    .select(['id', 'match_id', 'status', 'created_at', 'updated_at', 'completed_at', 'files_deleted_at'])
    .where(sql<boolean>`(lower(sender_email) = ${email} or lower(created_by) = ${email})`)
    .$if(scope !== undefined, (q) => q.where('match_id', 'in', [...(scope ?? []), '']))
    .execute();
  const free: string[] = [];
  for (const row of rows) {
    const item = { what: `Absender des Umschlags ${row.id}`, id: row.id, matchId: row.match_id };
    if (held.has(row.match_id)) {
      retained.push({ ...item, rule: HOLD_RULE, until: null });
    } else if (row.status === 'completed' && row.files_deleted_at === null) {
      const period = periods.completed_contracts;
      retained.push({
        ...item,
        rule: RETENTION_RULE_LABELS.completed_contracts,
        until: period ? dueAt(row.completed_at ?? row.updated_at, period).toISOString() : null,
      });
    } else if (row.status === 'created') {
      const period = periods.envelope_drafts;
      retained.push({
        ...item,
        rule: RETENTION_RULE_LABELS.envelope_drafts,
        until: period ? dueAt(row.created_at, period).toISOString() : null,
      });
    } else if (!OPEN_ENVELOPE_STATUSES.includes(row.status)) {
      free.push(row.id);
    } else {
      retained.push({ ...item, rule: 'Umschlag läuft noch', until: null });
    }
  }
  await replaceSender(trx, free, email, label);
  return free.length;
}

/** Replaces the colleague by the label as sender, creator and actor of these envelopes. */
export async function replaceSender(
  trx: Kysely<Database>,
  ids: readonly string[],
  email: string,
  label: string,
): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('envelopes')
    .set({
      sender_name: label,
      sender_email: sql<string>`case when lower(sender_email) = ${email} then ${label} else sender_email end`,
      created_by: sql<string>`case when lower(created_by) = ${email} then ${label} else created_by end`,
    })
    .where('id', 'in', [...ids])
    .where(sql<boolean>`lower(sender_email) = ${email}`)
    .execute();
  await trx
    .updateTable('envelopes')
    .set({ created_by: label })
    .where('id', 'in', [...ids])
    .where(sql<boolean>`lower(created_by) = ${email}`)
    .execute();
  await trx
    .updateTable('envelope_events')
    .set({ actor: label, ip: null, user_agent: null })
    .where('envelope_id', 'in', [...ids])
    .where(sql<boolean>`lower(actor) = ${email}`)
    .execute();
}
