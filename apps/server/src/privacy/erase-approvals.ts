import {
  dueAt,
  OPEN_ENVELOPE_STATUSES,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { containing } from '../shared/text-match.js';
import type { Periods } from './document-deletion.js';
import { HOLD_RULE } from './erase-documents.js';

/** `term` as a case-insensitive regular expression matching it literally. */
function literal(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** SQL: the text with every occurrence of the terms, in any case, replaced by the label. */
export function withoutTerms(column: RawBuilder<string>, terms: readonly string[], label: string) {
  let text = column;
  for (const term of terms) text = sql<string>`regexp_replace(${text}, ${literal(term)}, ${label}, 'gi')`;
  return text;
}

/** SQL: the text names one of the terms. */
export function namingAny(column: RawBuilder<string>, terms: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    terms.map((term) => sql<boolean>`${column} ilike ${containing(term)}`),
    sql` or `,
  )})`;
}

/** SQL over `approval_requests as r`: the request or its decision names one of the terms. */
function requestNaming(terms: readonly string[]): RawBuilder<boolean> {
  return namingAny(
    sql<string>`concat_ws(' ', r.send_request::text, r.requested_by, r.requested_by_name, r.customer,
      (select string_agg(concat_ws(' ', d.decided_by, d.decided_by_name, d.comment), ' ') from approval_decisions d
        where d.request_id = r.id))`,
    terms,
  );
}

/**
 * The completed contracts outside a hold that name the person as sender (by address) or in their
 * approval requests: kept with the contract, replaced once its files are deleted by their rule.
 */
export async function contractsNaming(
  trx: Kysely<Database>,
  email: string | null,
  terms: readonly string[],
  held: ReadonlySet<string>,
  scope?: ReadonlySet<string>,
): Promise<string[]> {
  if (terms.length === 0) return [];
  const rows = await trx
    .selectFrom('envelopes as e')
    .select('e.id')
    .where('e.status', '=', 'completed')
    .where('e.files_deleted_at', 'is', null)
    .where('e.match_id', 'not in', [...held, ''])
    .$if(scope !== undefined, (q) => q.where('e.match_id', 'in', [...(scope ?? []), '']))
    .where(
      sql<boolean>`(${email ? sql`lower(e.sender_email) = ${email} or lower(e.created_by) = ${email} or ` : sql``}exists
        (select 1 from approval_requests r where r.envelope_id = e.id and ${requestNaming(terms)}))`,
    )
    .orderBy('e.id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Approval requests and their decisions name the envelope's recipients (the send they hold), the
 * customer, who asked and who decided, with a comment. Where the envelope or document the request was for
 * has ended, the person is replaced by the label; where a duty keeps it — a held match, a completed
 * contract, a business letter, an envelope still running — the request is listed with the rule and date.
 * Returns how many requests were changed.
 */
export async function eraseApprovals(
  trx: Kysely<Database>,
  terms: readonly string[],
  label: string,
  held: ReadonlySet<string>,
  periods: Periods,
  retained: RetainedItem[],
  scope?: ReadonlySet<string>,
): Promise<number> {
  if (terms.length === 0) return 0;
  const rows = await trx
    .selectFrom('approval_requests as r')
    .leftJoin('envelopes as e', 'e.id', 'r.envelope_id')
    .leftJoin('documents as doc', 'doc.id', 'r.document_id')
    .select([
      'r.id',
      'r.match_id',
      'r.file_name',
      'e.status as envelope_status',
      'e.completed_at',
      'e.updated_at',
      'e.files_deleted_at',
      'doc.status as document_status',
      'doc.created_at as document_created_at',
    ])
    .where(requestNaming(terms))
    .$if(scope !== undefined, (q) => q.where('r.match_id', 'in', [...(scope ?? []), '']))
    .execute();
  const free: string[] = [];
  for (const row of rows) {
    const item = { what: `Freigabe-Anfrage für ${row.file_name}`, id: row.id, matchId: row.match_id };
    if (held.has(row.match_id)) {
      retained.push({ ...item, rule: HOLD_RULE, until: null });
    } else if (row.envelope_status === 'completed' && row.files_deleted_at === null) {
      const period = periods.completed_contracts;
      const end = row.completed_at ?? row.updated_at;
      retained.push({
        ...item,
        rule: RETENTION_RULE_LABELS.completed_contracts,
        until: period && end ? dueAt(end, period).toISOString() : null,
      });
    } else if (row.envelope_status && OPEN_ENVELOPE_STATUSES.includes(row.envelope_status)) {
      retained.push({ ...item, rule: 'Umschlag läuft noch', until: null });
    } else if (!row.envelope_status && row.document_status === 'ready' && row.document_created_at) {
      const period = periods.generated_documents;
      retained.push({
        ...item,
        rule: RETENTION_RULE_LABELS.generated_documents,
        until: period ? dueAt(row.document_created_at, period).toISOString() : null,
      });
    } else {
      free.push(row.id);
    }
  }
  await replaceInApprovals(trx, free, terms, label);
  return free.length;
}

/** Replaces the terms by the label in these approval requests and their decisions. */
export async function replaceInApprovals(
  trx: Kysely<Database>,
  ids: readonly string[],
  terms: readonly string[],
  label: string,
): Promise<void> {
  if (ids.length === 0 || terms.length === 0) return;
  const text = (column: string) => withoutTerms(sql<string>`${sql.ref(column)}`, terms, label);
  await trx
    .updateTable('approval_requests')
    .set({
      send_request: sql`${withoutTerms(sql<string>`send_request::text`, terms, label)}::jsonb`,
      requested_by: text('requested_by'),
      requested_by_name: text('requested_by_name'),
      customer: text('customer'),
    })
    .where('id', 'in', [...ids])
    .execute();
  await trx
    .updateTable('approval_decisions')
    .set({
      decided_by: text('decided_by'),
      decided_by_name: text('decided_by_name'),
      comment: text('comment'),
    })
    .where('request_id', 'in', [...ids])
    .execute();
}

/**
 * Webhook events name signers in their payload, as delivered to the receivers; they go with their
 * deliveries by the webhook rule, so an erase lists them with that rule and the date.
 */
export async function listWebhookEvents(
  trx: Kysely<Database>,
  terms: readonly string[],
  held: ReadonlySet<string>,
  periods: Periods,
  retained: RetainedItem[],
  scope?: ReadonlySet<string>,
): Promise<void> {
  if (terms.length === 0) return;
  const rows = await trx
    .selectFrom('webhook_events')
    .select(['id', 'type', 'created_at', sql<string | null>`payload->'data'->>'matchId'`.as('match_id')])
    .where(namingAny(sql<string>`payload::text`, terms))
    .orderBy('created_at')
    .execute();
  const period = periods.webhook_deliveries;
  for (const row of rows) {
    if (scope && !(row.match_id && scope.has(row.match_id))) continue;
    const isHeld = row.match_id !== null && held.has(row.match_id);
    retained.push({
      what: `Webhook-Ereignis ${row.type}`,
      id: row.id,
      matchId: row.match_id,
      rule: isHeld ? HOLD_RULE : RETENTION_RULE_LABELS.webhook_deliveries,
      until: isHeld || !period ? null : dueAt(row.created_at, period).toISOString(),
    });
  }
}
