import { berlinCalendarDateOf, formatCalendarDate } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { RETENTION_ACTOR } from './document-deletion.js';
import { replaceInApprovals } from './erase-approvals.js';
import { recordRetentionEnded, replaceInContractRecords } from './erase-contracts.js';
import { anonymiseRecipients, type ErasedRecipient } from './erase-recipients.js';
import { replaceSender } from './erase-sender.js';

/** Whom to erase: by e-mail address, or by full name for a person known here by name only. */
export type ErasedPerson = { email: string } | { name: string };

/** What an erase left to a duty and the deletion run applies it to once the duty ends. */
export interface PendingErase {
  /** Signers of completed contracts: anonymised once the contract's files are deleted by their rule. */
  recipients: string[];
  /** Matches under a legal hold: erased there once the hold is lifted. */
  holds: string[];
  /** Completed contracts naming them as sender or in an approval: replaced once their files are deleted. */
  contracts: string[];
  /**
   * Running contracts' records naming them: replaced once the signed contract is deleted by its rule (the
   * envelope's files, or the uploaded signed PDF). Absent in requests recorded before records existed.
   */
  records?: string[];
  /** What names them there: the address or name and the names it goes by. */
  terms: string[];
}

/** The erase the follow-up applies again, within what a duty no longer holds (`PersonErasure`). */
export interface ScopedErase {
  eraseWithin(actor: string, person: ErasedPerson, scope: ReadonlySet<string>): Promise<PendingErase>;
}

interface ErasureRow {
  id: string;
  email: string | null;
  name: string | null;
  pending: Partial<PendingErase> | string;
}

/** Keeps an erase request on record with what a duty still keeps of the person (`person_erasures`). */
export async function recordErasure(
  trx: Kysely<Database>,
  person: ErasedPerson,
  actor: string,
  now: Date,
  pending: PendingErase,
): Promise<void> {
  const email = 'email' in person ? person.email.trim().toLowerCase() : null;
  const name = 'name' in person ? person.name.trim().replace(/\s+/g, ' ') : null;
  await sql`insert into person_erasures (email, name, erased_at, erased_by, pending)
    values (${email}, ${name}, ${now}, ${actor}, ${JSON.stringify(pending)}::jsonb)`.execute(trx);
}

/**
 * What an erase left to a duty goes once the duty ends, as the erase's answer said: in each deletion run
 * (under its lease, so one replica at a time) the signers of completed contracts whose files their rule
 * has deleted since are anonymised, the person is replaced in the running contracts' records whose signed
 * contract their rule has deleted since, and the erase is applied again to the matches whose legal hold
 * was lifted since. Returns how many items it erased.
 */
export class ErasureFollowUp {
  constructor(
    private readonly db: Db,
    private readonly erasure: ScopedErase,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(): Promise<number> {
    const { rows } = await sql<ErasureRow>`select id, email, name, pending from person_erasures
      where jsonb_array_length(coalesce(pending->'recipients', '[]'::jsonb)) > 0
         or jsonb_array_length(coalesce(pending->'holds', '[]'::jsonb)) > 0
         or jsonb_array_length(coalesce(pending->'contracts', '[]'::jsonb)) > 0
         or jsonb_array_length(coalesce(pending->'records', '[]'::jsonb)) > 0
      order by erased_at`.execute(this.db);
    let erased = 0;
    for (const row of rows) {
      const pending = typeof row.pending === 'string' ? JSON.parse(row.pending) : row.pending;
      const recipients = new Set<string>(pending.recipients ?? []);
      const holds = new Set<string>(pending.holds ?? []);
      const contracts = new Set<string>(pending.contracts ?? []);
      const records = new Set<string>(pending.records ?? []);
      const terms = new Set<string>(pending.terms ?? []);
      erased += await this.signersOfDeletedContracts(recipients);
      erased += await this.namesInDeletedContracts(contracts, [...terms], row.email);
      erased += await this.namesInEndedRecords(records, [...terms]);
      const lifted = await this.liftedHolds(holds);
      if (lifted.size > 0) {
        const person: ErasedPerson = row.email ? { email: row.email } : { name: row.name ?? '' };
        try {
          const next = await this.erasure.eraseWithin(RETENTION_ACTOR, person, lifted);
          for (const id of lifted) holds.delete(id);
          for (const id of next.holds) holds.add(id);
          for (const id of next.recipients) recipients.add(id);
          for (const id of next.contracts) contracts.add(id);
          for (const id of next.records ?? []) records.add(id);
          for (const term of next.terms) terms.add(term);
          erased += lifted.size;
        } catch {
          // An envelope to them runs again in that match: the next run tries again.
        }
      }
      await sql`update person_erasures set pending = ${JSON.stringify({
        recipients: [...recipients].sort(),
        holds: [...holds].sort(),
        contracts: [...contracts].sort(),
        records: [...records].sort(),
        terms: contracts.size > 0 || records.size > 0 ? [...terms].sort() : [],
      })}::jsonb where id = ${row.id}`.execute(this.db);
    }
    return erased;
  }

  /** Anonymises the pending signers whose envelope's files are deleted; removes those done from the set. */
  private async signersOfDeletedContracts(pending: Set<string>): Promise<number> {
    if (pending.size === 0) return 0;
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const rows: (ErasedRecipient & { erased_at: Date | null })[] = await trx
        .selectFrom('envelope_recipients as r')
        .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
        .select([
          'r.id',
          'r.envelope_id',
          'r.name',
          'r.email',
          'r.typed_name',
          'r.erased_at',
          'e.status',
          'e.match_id',
          'e.completed_at',
          'e.updated_at',
          'e.document_id',
          'e.files_deleted_at',
        ])
        .where('r.id', 'in', [...pending])
        .forUpdate()
        .execute();
      const known = new Set(rows.map((r) => r.id));
      for (const id of [...pending]) if (!known.has(id)) pending.delete(id);
      const due = rows.filter((r) => r.files_deleted_at !== null && r.erased_at === null);
      const label = `gelöscht am ${formatCalendarDate(berlinCalendarDateOf(now))}`;
      await anonymiseRecipients(trx, due, label, RETENTION_ACTOR, now);
      for (const r of rows) if (r.files_deleted_at !== null || r.erased_at !== null) pending.delete(r.id);
      return due.length;
    });
  }

  /**
   * Replaces the person in the approvals of the pending contracts whose files are deleted, and as their
   * sender where erased by address; removes those done, or gone, from the set.
   */
  private async namesInDeletedContracts(
    pending: Set<string>,
    terms: readonly string[],
    email: string | null,
  ): Promise<number> {
    if (pending.size === 0) return 0;
    const label = `gelöscht am ${formatCalendarDate(berlinCalendarDateOf(this.now()))}`;
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('envelopes')
        .select(['id', 'files_deleted_at'])
        .where('id', 'in', [...pending])
        .forUpdate()
        .execute();
      const known = new Set(rows.map((r) => r.id));
      for (const id of [...pending]) if (!known.has(id)) pending.delete(id);
      const due = rows.filter((r) => r.files_deleted_at !== null).map((r) => r.id);
      if (due.length === 0) return 0;
      const requests = await trx
        .selectFrom('approval_requests')
        .select('id')
        .where('envelope_id', 'in', due)
        .execute();
      await replaceInApprovals(
        trx,
        requests.map((r) => r.id),
        terms,
        label,
      );
      if (email) await replaceSender(trx, due, email, label);
      for (const id of due) pending.delete(id);
      return due.length;
    });
  }

  /**
   * Replaces the person in the pending contract records whose signed contract its rule has deleted since;
   * removes those done, or gone, from the set.
   */
  private async namesInEndedRecords(pending: Set<string>, terms: readonly string[]): Promise<number> {
    if (pending.size === 0) return 0;
    const now = this.now();
    const label = `gelöscht am ${formatCalendarDate(berlinCalendarDateOf(now))}`;
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('contract_records as c')
        .select([
          'c.id',
          'c.source_kind',
          sql<boolean>`c.signed_pdf is not null`.as('has_pdf'),
          sql<Date | null>`(select e.files_deleted_at from envelopes e where e.id = c.envelope_id)`.as(
            'files_deleted_at',
          ),
        ])
        .where('c.id', 'in', [...pending])
        .forUpdate()
        .execute();
      const known = new Set(rows.map((r) => r.id));
      for (const id of [...pending]) if (!known.has(id)) pending.delete(id);
      const due = rows.filter(recordRetentionEnded).map((r) => r.id);
      await replaceInContractRecords(trx, due, terms, label, RETENTION_ACTOR, now);
      for (const id of due) pending.delete(id);
      return due.length;
    });
  }

  private async liftedHolds(holds: ReadonlySet<string>): Promise<Set<string>> {
    if (holds.size === 0) return new Set();
    const active = await this.db
      .selectFrom('legal_holds')
      .select('match_id')
      .where('lifted_at', 'is', null)
      .where('match_id', 'in', [...holds])
      .execute();
    const held = new Set(active.map((r) => r.match_id));
    return new Set([...holds].filter((id) => !held.has(id)));
  }
}
