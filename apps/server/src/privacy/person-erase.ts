import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  calendarDateOf,
  dueAt,
  formatCalendarDate,
  OPEN_ENVELOPE_STATUSES,
  type PersonErase,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../shared/http-error.js';
import { accountHits, eraseAccount } from './account-erasure.js';
import { ERASE_RULE } from './deletion-records.js';
import { deleteDocumentBatch } from './document-deletion.js';
import { normalized, pseudonymiseMatches } from './match-person.js';
import type { PersonSearch } from './person-search.js';
import type { RetentionRules } from './retention-rules.js';
import { containing } from './text-match.js';

export interface PersonErasureDeps {
  db: Db;
  audit: AuditLog;
  search: PersonSearch;
  rules: RetentionRules;
  mailDirectory?: string;
  /** ADMIN_EMAILS: administrators the app cannot remove, so not from the staff list either. */
  configuredAdministrators: ReadonlySet<string>;
  /** Matches come from an external CRM (CRM_URL, Salesforce): its records are not ours to change. */
  externalCrm?: boolean;
  now?: () => Date;
}

/** Whom to erase: by e-mail address, or by full name for a person known here by name only. */
type ErasedPerson = { email: string } | { name: string };

const ENDED = ['declined', 'voided', 'failed'];

/**
 * Art. 17 DSGVO for one e-mail address or one full name. What no retention duty holds goes at once: the
 * IP addresses and browsers recorded of their signatures, the files of ended envelopes they were a
 * recipient of (the recipient then reads „gelöscht am …“), failed generations with their data, their
 * mails, the fields of the built-in match store that hold them (pseudonymised), and — by e-mail address —
 * problem reports and their entry in the staff list. What a duty holds — a completed contract, a business
 * letter, a held match, the audit log — is listed with its rule and the date it will go, as is what this
 * erase may not change: an external CRM's records, and by name the records of an account. Refused while
 * an envelope to them still runs: it must be voided first.
 */
export class PersonErasure {
  private readonly now: () => Date;

  constructor(private readonly deps: PersonErasureDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async erase(actor: string, person: ErasedPerson): Promise<PersonErase> {
    const { db, audit } = this.deps;
    const now = this.now();
    const byEmail = 'email' in person;
    // By e-mail address the account-keyed records go too; by name they are only listed.
    const email = byEmail ? normalized(person.email) : null;
    const needle = normalized(byEmail ? person.email : person.name);
    const isRecipient = recipientIs(email, needle);
    const running = await db
      .selectFrom('envelope_recipients as r')
      .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
      .select(['e.id', 'e.match_id', 'e.subject'])
      .distinct()
      .where(isRecipient)
      .where('e.status', 'in', [...OPEN_ENVELOPE_STATUSES])
      .execute();
    if (running.length > 0) {
      const list = running.map((e) => `${e.match_id}: „${e.subject}“ (${e.id})`);
      throw new HttpError(
        409,
        'running_envelopes',
        `An diese Person laufen noch ${running.length === 1 ? 'ein Umschlag' : `${running.length} Umschläge`}: ${list.join('; ')}. Bitte verwirf ${running.length === 1 ? 'ihn' : 'sie'} zuerst, dann lösche erneut.`,
        { envelopes: running.map((e) => e.id) },
      );
    }
    const periods = await this.deps.rules.periods();
    const erasedLabel = `gelöscht am ${formatCalendarDate(calendarDateOf(now))}`;
    const held = new Set(
      (await db.selectFrom('legal_holds').select('match_id').where('lifted_at', 'is', null).execute()).map(
        (r) => r.match_id,
      ),
    );
    const hits = await this.deps.search.search(needle);
    const retained: RetainedItem[] = [];
    const erased: Record<string, number> = {};
    const add = (what: string, n: number) => {
      if (n > 0) erased[what] = (erased[what] ?? 0) + n;
    };

    const recipients = await db
      .selectFrom('envelope_recipients as r')
      .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
      .select([
        'r.id',
        'r.envelope_id',
        'r.email',
        'e.document_id',
        'e.status',
        'e.match_id',
        'e.completed_at',
        'e.updated_at',
      ])
      .where(isRecipient)
      .execute();
    // Documents may name the person without the address: by the names the address goes by here.
    const names = new Set(
      email
        ? (
            await db
              .selectFrom('envelope_recipients')
              .select('name')
              .where(sql<boolean>`lower(email) = ${email}`)
              .union(db.selectFrom('users').select('name').where(sql<boolean>`lower(email) = ${email}`))
              .execute()
          )
            .map((r) => normalized(r.name))
            .filter((name) => name.length >= 3 && name !== needle)
        : [],
    );
    const byName = (await Promise.all([...names].map((name) => this.deps.search.search(name)))).flat();
    const documentIds = new Set([
      ...[...hits, ...byName].filter((h) => h.source === 'document').map((h) => h.id),
      ...recipients.map((r) => r.document_id),
    ]);
    const documents = documentIds.size
      ? await db
          .selectFrom('documents as d')
          .select(['d.id', 'd.match_id', 'd.status', 'd.created_at', 'd.file_name'])
          .where('d.id', 'in', [...documentIds])
          .execute()
      : [];
    const envelopesOf = documentIds.size
      ? await db
          .selectFrom('envelopes')
          .select(['id', 'document_id', 'status', 'completed_at', 'updated_at'])
          .where('document_id', 'in', [...documentIds])
          .execute()
      : [];
    const toDelete: string[] = [];
    for (const document of documents) {
      const envelopes = envelopesOf.filter((e) => e.document_id === document.id);
      const completed = envelopes.find((e) => e.status === 'completed');
      const what = `Dokument ${document.file_name}`;
      if (held.has(document.match_id)) {
        retained.push({
          what,
          id: document.id,
          matchId: document.match_id,
          rule: 'Aufbewahrungssperre',
          until: null,
        });
      } else if (completed) {
        const period = periods.completed_contracts;
        retained.push({
          what: `Vertrag ${document.file_name} (abgeschlossen)`,
          id: document.id,
          matchId: document.match_id,
          rule: RETENTION_RULE_LABELS.completed_contracts,
          until: period ? dueAt(completed.completed_at ?? completed.updated_at, period).toISOString() : null,
        });
      } else if (envelopes.some((e) => OPEN_ENVELOPE_STATUSES.includes(e.status))) {
        retained.push({
          what,
          id: document.id,
          matchId: document.match_id,
          rule: 'Umschlag läuft noch',
          until: null,
        });
      } else if (document.status === 'ready' && envelopes.length === 0) {
        const period = periods.generated_documents;
        retained.push({
          what,
          id: document.id,
          matchId: document.match_id,
          rule: RETENTION_RULE_LABELS.generated_documents,
          until: period ? dueAt(document.created_at, period).toISOString() : null,
        });
      } else {
        toDelete.push(document.id);
      }
    }

    const mailFiles = this.deps.mailDirectory ? await this.deps.search.mailFilesNaming(needle) : [];
    await db.transaction().execute(async (trx) => {
      const deleted = await deleteDocumentBatch(trx, audit, 'envelopes', periods, now, toDelete.length, {
        ids: toDelete,
        rule: ERASE_RULE,
        actor,
      });
      for (const counts of deleted.values()) {
        add('Dokumente mit ihren Versionen', counts.documents);
        add('Dateien von beendeten Umschlägen', counts.envelopes);
      }
      const recipientIds = recipients.map((r) => r.id);
      if (recipientIds.length > 0) {
        // No duty keeps where and with which browser someone signed.
        const cleared = await trx
          .updateTable('envelope_recipients')
          .set({ signed_ip: null, signed_user_agent: null })
          .where('id', 'in', recipientIds)
          .where((eb) => eb.or([eb('signed_ip', 'is not', null), eb('signed_user_agent', 'is not', null)]))
          .executeTakeFirst();
        add('IP-Adressen von Unterschriften', Number(cleared.numUpdatedRows));
        const events = await trx
          .updateTable('envelope_events')
          .set({ ip: null, user_agent: null })
          .where('recipient_id', 'in', recipientIds)
          .where((eb) => eb.or([eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
          .executeTakeFirst();
        add('IP-Adressen in Ereignissen', Number(events.numUpdatedRows));
      }
      const ownEvents = await trx
        .updateTable('envelope_events')
        .set({ ip: null, user_agent: null })
        .where(sql<boolean>`lower(actor) = ${needle}`)
        .where((eb) => eb.or([eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
        .executeTakeFirst();
      add('IP-Adressen in Ereignissen', Number(ownEvents.numUpdatedRows));
      // Ended envelopes keep their history, with the person replaced by the date they were erased.
      const ended = recipients.filter((r) => ENDED.includes(r.status) && !held.has(r.match_id));
      for (const recipient of ended) {
        await trx
          .updateTable('envelope_recipients')
          .set({
            name: erasedLabel,
            email: erasedLabel,
            typed_name: null,
            drawn_signature: null,
            decline_reason: null,
            erased_at: now,
          })
          .where('id', '=', recipient.id)
          .execute();
        await trx
          .updateTable('envelope_events')
          .set({ actor: erasedLabel, ip: null, user_agent: null })
          .where('envelope_id', '=', recipient.envelope_id)
          .where(sql<boolean>`lower(actor) in (${normalized(recipient.email)}, ${needle})`)
          .execute();
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
      add('Empfänger beendeter Umschläge anonymisiert', ended.length);
      for (const recipient of recipients.filter((r) => ENDED.includes(r.status) && held.has(r.match_id))) {
        retained.push({
          what: `Empfänger im Umschlag ${recipient.envelope_id}`,
          id: recipient.id,
          matchId: recipient.match_id,
          rule: 'Aufbewahrungssperre',
          until: null,
        });
      }
      for (const recipient of recipients.filter((r) => r.status === 'completed')) {
        const period = periods.completed_contracts;
        retained.push({
          what: `Unterschrift im Umschlag ${recipient.envelope_id}`,
          id: recipient.id,
          matchId: recipient.match_id,
          rule: RETENTION_RULE_LABELS.completed_contracts,
          until: period ? dueAt(recipient.completed_at ?? recipient.updated_at, period).toISOString() : null,
        });
      }
      const mails = await trx
        .deleteFrom('outgoing_mail')
        .where((eb) =>
          eb.or([
            ...(email ? [sql<boolean>`lower(recipient) = ${email}`] : []),
            eb('body', 'ilike', containing(needle)),
            eb('subject', 'ilike', containing(needle)),
          ]),
        )
        .executeTakeFirst();
      add('Mails im Ausgang', Number(mails.numDeletedRows));
      if (email) {
        for (const [what, n] of Object.entries(
          await eraseAccount(trx, email, this.deps.configuredAdministrators, retained),
        ))
          add(what, n);
      } else {
        retained.push(...accountHits([...hits]));
      }
      // The built-in store names a person by name rather than address: by the names the address goes by.
      const changed = new Set<string>();
      const kept = new Set<string>();
      for (const term of [needle, ...names]) {
        const matches = await pseudonymiseMatches(trx, term, erasedLabel, held);
        for (const id of matches.changed) changed.add(id);
        for (const id of matches.kept) kept.add(id);
      }
      add('Matches (Person pseudonymisiert)', changed.size);
      for (const matchId of kept) {
        retained.push({
          what: 'Match-Daten',
          id: matchId,
          matchId,
          rule: 'Aufbewahrungssperre',
          until: null,
        });
      }
      if (this.deps.externalCrm) {
        // Our copy of the CRM's answers; the CRM answers again on the next lookup.
        const cached = await trx
          .deleteFrom('crm_match_cache')
          .where((eb) =>
            eb.or([needle, ...names].map((term) => sql<boolean>`record::text ilike ${containing(term)}`)),
          )
          .where('match_id', 'not in', [...held, ''])
          .executeTakeFirst();
        add('Zwischengespeicherte Matches aus dem CRM', Number(cached.numDeletedRows));
        const known = [
          ...new Set([...documents.map((d) => d.match_id), ...recipients.map((r) => r.match_id)]),
        ].sort();
        retained.push({
          what: `Match-Daten im externen CRM${known.length > 0 ? ` (${known.join(', ')})` : ''}: hier nicht geändert, dort zu löschen`,
          id: 'crm',
          matchId: null,
          rule: 'Externes CRM',
          until: null,
        });
      }
      const auditCount = hits.filter((h) => h.source === 'audit').length;
      if (auditCount > 0) {
        retained.push({
          what: `${auditCount} ${auditCount === 1 ? 'Eintrag' : 'Einträge'} im Audit-Log`,
          id: 'audit',
          matchId: null,
          rule: RETENTION_RULE_LABELS.audit_log,
          until: null,
        });
      }
      await audit.record(
        {
          actor,
          action: 'person.erase',
          subject: email ?? needle,
          newValue: Object.entries(erased)
            .map(([what, n]) => `${what}: ${n}`)
            .join(', '),
          oldValue: retained.length > 0 ? `${retained.length} aufbewahrt` : null,
        },
        trx,
      );
    });
    // After the transaction: a crash in between leaves the files for the next erase or the mail rule.
    let files = 0;
    for (const name of mailFiles) {
      const removed = await unlink(join(this.deps.mailDirectory ?? '', name)).then(
        () => true,
        () => false,
      );
      if (removed) files++;
    }
    add('Mails im Mail-Ordner', files);
    return { erased: Object.entries(erased).map(([what, count]) => ({ what, count })), retained };
  }
}

/**
 * SQL condition on `envelope_recipients as r`: the recipient is the person — by address exactly, by name
 * where the recipient's name or the name they signed with holds the full name.
 */
function recipientIs(email: string | null, name: string) {
  const like = containing(name);
  return email
    ? sql<boolean>`lower(r.email) = ${email}`
    : sql<boolean>`(regexp_replace(r.name, '[[:space:]]+', ' ', 'g') ilike ${like} or regexp_replace(coalesce(r.typed_name, ''), '[[:space:]]+', ' ', 'g') ilike ${like})`;
}
