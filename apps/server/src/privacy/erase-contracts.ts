import {
  berlinCalendarDateOf,
  dueAt,
  formatCalendarDate,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Periods } from './document-deletion.js';
import { namingAny, withoutTerms } from './erase-approvals.js';
import { HOLD_RULE } from './erase-documents.js';

/** The history entry of a contract record whose names an erase replaced. */
export const CONTRACT_ERASED_EVENT = 'person_erased';

/** A name field as compared and replaced: runs of white space as one space, as the terms are. */
const spaced = (value: RawBuilder<string>) => sql<string>`regexp_replace(${value}, '[[:space:]]+', ' ', 'g')`;

/** SQL over `contract_records as c`: the record or one of its events names one of the terms. */
function recordNaming(terms: readonly string[]): RawBuilder<boolean> {
  return namingAny(
    spaced(sql<string>`concat_ws(' ', c.counterparty, c.customer, c.consultant, c.parties::text, c.signed_by,
      (select string_agg(concat_ws(' ', v.actor, v.detail), ' ') from contract_events v where v.contract_id = c.id))`),
    terms,
  );
}

/** What of a contract record decides how long its names are kept. */
export interface RecordRetention {
  source_kind: 'envelope' | 'signed_elsewhere';
  /** The uploaded signed PDF is still stored (a document signed elsewhere). */
  has_pdf: boolean;
  /** When a rule deleted the files of the record's envelope; null while they are kept. */
  files_deleted_at: Date | null;
}

/**
 * Whether a contract record's duty has ended: it is kept as long as the signed contract is — an
 * envelope's until its rule deleted its files, a document signed elsewhere until its rule deleted the
 * uploaded PDF. After that the record stays with its dates, without the person.
 */
export function recordRetentionEnded(record: RecordRetention): boolean {
  return record.source_kind === 'envelope' ? record.files_deleted_at !== null : !record.has_pdf;
}

/**
 * The running contracts' records that name the person — counterparty, customer, consultant, parties,
 * who signed a document signed elsewhere, or one of the record's events. A record is the company's
 * contract and stays; where its duty has ended (see `recordRetentionEnded`) the person is replaced by
 * the label in it and its events, otherwise it is listed with its rule and date — and an uploaded signed
 * PDF with it, which an erase never deletes: the rule for completed contracts does, counted from the
 * signature. Returns how many records were changed and those kept for the deletion run to finish.
 */
export async function eraseContractRecords(
  trx: Kysely<Database>,
  terms: readonly string[],
  label: string,
  actor: string,
  now: Date,
  held: ReadonlySet<string>,
  periods: Periods,
  retained: RetainedItem[],
  scope?: ReadonlySet<string>,
): Promise<{ changed: number; pending: string[] }> {
  if (terms.length === 0) return { changed: 0, pending: [] };
  const rows = await trx
    .selectFrom('contract_records as c')
    .leftJoin('envelopes as e', 'e.id', 'c.envelope_id')
    .select([
      'c.id',
      'c.match_id',
      'c.kind',
      'c.source_kind',
      'c.signed_at',
      'c.signed_pdf_sha256',
      sql<boolean>`c.signed_pdf is not null`.as('has_pdf'),
      'e.completed_at',
      'e.files_deleted_at',
    ])
    .where(recordNaming(terms))
    .$if(scope !== undefined, (q) => q.where('c.match_id', 'in', [...(scope ?? []), '']))
    .orderBy('c.signed_at')
    .orderBy('c.id')
    .execute();
  const free: string[] = [];
  const pending: string[] = [];
  const period = periods.completed_contracts;
  for (const row of rows) {
    const signed = formatCalendarDate(berlinCalendarDateOf(row.signed_at));
    const item = {
      what: `Namen im Vertrag ${row.id} (${row.kind}, unterschrieben am ${signed})`,
      id: row.id,
      matchId: row.match_id,
    };
    const pdf = {
      ...item,
      what: `Hochgeladenes unterschriebenes PDF des Vertrags ${row.id} (unterschrieben am ${signed})`,
    };
    if (held.has(row.match_id)) {
      retained.push({ ...item, rule: HOLD_RULE, until: null });
      if (row.has_pdf) retained.push({ ...pdf, rule: HOLD_RULE, until: null });
    } else if (!recordRetentionEnded(row)) {
      const until = period
        ? dueAt(row.source_kind === 'envelope' ? (row.completed_at ?? row.signed_at) : row.signed_at, period)
        : null;
      const kept = { rule: RETENTION_RULE_LABELS.completed_contracts, until: until?.toISOString() ?? null };
      retained.push({ ...item, ...kept });
      if (row.has_pdf) retained.push({ ...pdf, ...kept });
      pending.push(row.id);
    } else {
      free.push(row.id);
    }
  }
  await replaceInContractRecords(trx, free, terms, label, actor, now);
  return { changed: free.length, pending };
}

/**
 * Replaces the terms by the label in these contract records — their name fields and the names among
 * their parties — and in their events, with a history entry saying so. The dates, the notice rule and the
 * chain stay.
 */
export async function replaceInContractRecords(
  trx: Kysely<Database>,
  ids: readonly string[],
  terms: readonly string[],
  label: string,
  actor: string,
  now: Date,
): Promise<void> {
  if (ids.length === 0 || terms.length === 0) return;
  const name = (column: string) => withoutTerms(spaced(sql<string>`${sql.ref(column)}`), terms, label);
  await trx
    .updateTable('contract_records')
    .set({
      counterparty: name('counterparty'),
      customer: name('customer'),
      consultant: name('consultant'),
      signed_by: name('signed_by'),
      // Each party's name only: a term must never reach the list's keys.
      parties: sql<string>`(select coalesce(jsonb_agg(p || jsonb_build_object('name',
          ${withoutTerms(spaced(sql<string>`coalesce(p->>'name', '')`), terms, label)}) order by o), '[]'::jsonb)
        from jsonb_array_elements(contract_records.parties) with ordinality as x(p, o))`,
    })
    .where('id', 'in', [...ids])
    .execute();
  await trx
    .updateTable('contract_events')
    .set({
      actor: withoutTerms(sql<string>`actor`, terms, label),
      detail: withoutTerms(sql<string>`detail`, terms, label),
    })
    .where('contract_id', 'in', [...ids])
    .where(namingAny(sql<string>`concat_ws(' ', actor, detail)`, terms))
    .execute();
  await trx
    .insertInto('contract_events')
    .values(
      ids.map((id) => ({
        contract_id: id,
        type: CONTRACT_ERASED_EVENT,
        actor,
        detail: 'Name auf Antrag gelöscht (Art. 17 DSGVO)',
        at: now,
      })),
    )
    .execute();
}

/**
 * What of the running contracts is keyed by a colleague's address: their calendar subscribe link goes,
 * and where they last changed the reminders' lead times they are replaced by the label (the audit log
 * keeps the change). Returns the counts per kind.
 */
export async function eraseContractAccount(
  trx: Kysely<Database>,
  email: string,
  label: string,
): Promise<Record<string, number>> {
  const feeds = await trx
    .deleteFrom('calendar_feeds')
    .where(sql<boolean>`lower(user_email) = ${email}`)
    .executeTakeFirst();
  const settings = await trx
    .updateTable('contract_reminder_settings')
    .set({ changed_by: label })
    .where(sql<boolean>`lower(changed_by) = ${email}`)
    .executeTakeFirst();
  return {
    'Links zum Kalender-Abo der Vertragsfristen': Number(feeds.numDeletedRows),
    'Einstellungen der Vertragserinnerungen (Person ersetzt)': Number(settings.numUpdatedRows),
  };
}
