import { dueAt, RETENTION_RULE_LABELS, type RetainedItem } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Periods } from './document-deletion.js';
import { HOLD_RULE } from './erase-documents.js';
import { heldMatches } from './legal-holds.js';
import { normalized } from './match-person.js';

/** A recipient row of the erased person, with what of its envelope decides what may go. */
export interface ErasedRecipient {
  id: string;
  envelope_id: string;
  document_id: string;
  name: string;
  email: string;
  typed_name: string | null;
  /** The envelope's status. */
  status: string;
  match_id: string;
  completed_at: Date | null;
  updated_at: Date;
  /** When a rule (or an erase) deleted the envelope's files; null while they are kept. */
  files_deleted_at: Date | null;
}

export const ENDED = ['declined', 'voided', 'failed', 'lapsed'];

/**
 * Whether an erase may rewrite an envelope's history now: it has ended, or its files are deleted — a
 * completed contract's duty ends with its files.
 */
export function isErasable(envelope: { status: string; files_deleted_at: Date | null }): boolean {
  return ENDED.includes(envelope.status) || envelope.files_deleted_at !== null;
}

/** Envelopes whose history an erase may rewrite now: ended ones outside a legal hold. */
export function endedRecipients(
  recipients: readonly ErasedRecipient[],
  held: ReadonlySet<string>,
): ErasedRecipient[] {
  return recipients.filter((r) => isErasable(r) && !held.has(r.match_id));
}

/**
 * No duty keeps where and with which browser someone signed, or the IP addresses of their events — unless
 * a legal hold keeps the whole match as it is. Returns how many signatures and events were cleared.
 */
export async function clearAddresses(
  trx: Kysely<Database>,
  recipients: readonly ErasedRecipient[],
  needle: string,
  held: ReadonlySet<string>,
  /** Only the envelopes of these matches; absent: all. */
  scope?: ReadonlySet<string>,
): Promise<{ signatures: number; events: number }> {
  const ids = recipients.filter((r) => !held.has(r.match_id)).map((r) => r.id);
  let signatures = 0;
  let events = 0;
  if (ids.length > 0) {
    const cleared = await trx
      .updateTable('envelope_recipients')
      .set({ signed_ip: null, signed_user_agent: null })
      .where('id', 'in', ids)
      .where((eb) => eb.or([eb('signed_ip', 'is not', null), eb('signed_user_agent', 'is not', null)]))
      .executeTakeFirst();
    signatures = Number(cleared.numUpdatedRows);
    const ofRecipients = await trx
      .updateTable('envelope_events')
      .set({ ip: null, user_agent: null })
      .where('recipient_id', 'in', ids)
      .where((eb) => eb.or([eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
      .executeTakeFirst();
    events = Number(ofRecipients.numUpdatedRows);
  }
  const own = await trx
    .updateTable('envelope_events')
    .set({ ip: null, user_agent: null })
    .where(sql<boolean>`lower(actor) = ${needle}`)
    .where(sql<boolean>`envelope_id not in (select id from envelopes where match_id in ${heldMatches})`)
    .$if(scope !== undefined, (q) =>
      q.where(
        'envelope_id',
        'in',
        trx
          .selectFrom('envelopes')
          .select('id')
          .where('match_id', 'in', [...(scope ?? []), '']),
      ),
    )
    .where((eb) => eb.or([eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
    .executeTakeFirst();
  return { signatures, events: events + Number(own.numUpdatedRows) };
}

/**
 * An ended envelope keeps its history with the person replaced by the date they were erased: the
 * recipient row, the events they caused, and the texts of the events — what they typed as their name,
 * why they declined, the list of recipients a send names. An event says what was erased and by whom.
 */
export async function anonymiseRecipients(
  trx: Kysely<Database>,
  recipients: readonly ErasedRecipient[],
  label: string,
  actor: string,
  now: Date,
  needle?: string,
): Promise<void> {
  for (const recipient of recipients) {
    await trx
      .updateTable('envelope_recipients')
      .set({
        name: label,
        email: label,
        typed_name: null,
        drawn_signature: null,
        decline_reason: null,
        signed_ip: null,
        signed_user_agent: null,
        erased_at: now,
      })
      .where('id', '=', recipient.id)
      .execute();
    const actors = [normalized(recipient.email), ...(needle ? [needle] : [])];
    await trx
      .updateTable('envelope_events')
      .set({ actor: label, ip: null, user_agent: null })
      .where('envelope_id', '=', recipient.envelope_id)
      .where(sql<boolean>`lower(actor) in (${sql.join(actors)})`)
      .execute();
    // What they typed or wrote themselves: the whole text goes.
    await trx
      .updateTable('envelope_events')
      .set({ detail: label })
      .where('recipient_id', '=', recipient.id)
      .where('detail', 'is not', null)
      .execute();
    // Others' events that name them among other things: the name and the address go, the rest stays.
    for (const value of new Set([recipient.name, recipient.email, recipient.typed_name ?? ''])) {
      if (value.trim().length < 3) continue;
      await trx
        .updateTable('envelope_events')
        .set({ detail: sql<string>`replace(detail, ${value}, ${label})` })
        .where('envelope_id', '=', recipient.envelope_id)
        .where(sql<boolean>`strpos(detail, ${value}) > 0`)
        .execute();
    }
    await trx
      .insertInto('envelope_events')
      .values({
        envelope_id: recipient.envelope_id,
        recipient_id: recipient.id,
        type: 'signer_erased',
        actor,
        detail: 'Name und Adresse auf Antrag gelöscht (Art. 17 DSGVO)',
        at: now,
      })
      .execute();
  }
}

/** What of the person's envelopes a duty keeps: a held match as it is, a completed contract's signer. */
export function retainedRecipients(
  recipients: readonly ErasedRecipient[],
  held: ReadonlySet<string>,
  periods: Periods,
): RetainedItem[] {
  const retained: RetainedItem[] = [];
  for (const recipient of recipients) {
    if (held.has(recipient.match_id)) {
      retained.push({
        what: `Empfänger im Umschlag ${recipient.envelope_id} mit seinen Ereignissen, IP-Adressen und Browsern`,
        id: recipient.id,
        matchId: recipient.match_id,
        rule: HOLD_RULE,
        until: null,
      });
    } else if (recipient.status === 'completed' && recipient.files_deleted_at === null) {
      const period = periods.completed_contracts;
      retained.push({
        what: `Unterschrift im Umschlag ${recipient.envelope_id}`,
        id: recipient.id,
        matchId: recipient.match_id,
        rule: RETENTION_RULE_LABELS.completed_contracts,
        until: period ? dueAt(recipient.completed_at ?? recipient.updated_at, period).toISOString() : null,
      });
    }
  }
  return retained;
}
