import {
  berlinCalendarDateOf,
  formatCalendarDate,
  OPEN_ENVELOPE_STATUSES,
  PERSON_SOURCE_LABELS,
  type PersonErase,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../shared/http-error.js';
import { containing } from '../shared/text-match.js';
import { accountHits, eraseAccount, eraseReportsAbout } from './account-erasure.js';
import { ERASE_RULE } from './deletion-records.js';
import { deleteDocumentBatch } from './document-deletion.js';
import { contractsNaming, eraseApprovals, listWebhookEvents } from './erase-approvals.js';
import { eraseContractAccount, eraseContractRecords } from './erase-contracts.js';
import { HOLD_RULE, sortDocuments } from './erase-documents.js';
import { deleteMailFiles, eraseOutgoingMail, sortMailFiles } from './erase-mail.js';
import {
  anonymiseRecipients,
  clearAddresses,
  type ErasedRecipient,
  endedRecipients,
  isErasable,
  retainedRecipients,
} from './erase-recipients.js';
import { eraseSender } from './erase-sender.js';
import { type ErasedPerson, type PendingErase, recordErasure } from './erasure-requests.js';
import { normalized, pseudonymiseMatches } from './match-person.js';
import { deleteExportsOf } from './person-export.js';
import { type PersonSearch, REQUEST_LIMIT } from './person-search.js';
import type { RetentionRules } from './retention-rules.js';

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

/**
 * Art. 17 DSGVO for one e-mail address or one full name. What no retention duty holds goes at once: the
 * IP addresses and browsers recorded of their signatures, the files of ended envelopes they were a
 * recipient of (the recipient then reads „gelöscht am …“), failed generations with their data, their
 * mails, the fields of the built-in match store that hold them (pseudonymised), their name in the records
 * of contracts whose duty has ended, and — by e-mail address — problem reports, their entry in the staff
 * list and their calendar link. What a duty holds — a completed contract (its record and an uploaded
 * signed PDF with it), a business letter, a held match, the audit log — is listed with its rule and the
 * date it will go, as is what this
 * erase may not change: an external CRM's records, and by name the records of an account. Refused while
 * an envelope to them still runs: it must be voided first.
 */
export class PersonErasure {
  private readonly now: () => Date;

  constructor(private readonly deps: PersonErasureDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The erase an administrator asks for: applied now, and on record with what a duty still keeps. */
  async erase(actor: string, person: ErasedPerson): Promise<PersonErase> {
    return (await this.apply(actor, person)).result;
  }

  /**
   * The erase again, limited to matches whose legal hold was lifted since (the deletion run): what it
   * still cannot erase is returned rather than recorded anew.
   */
  async eraseWithin(actor: string, person: ErasedPerson, scope: ReadonlySet<string>): Promise<PendingErase> {
    return (await this.apply(actor, person, scope)).pending;
  }

  private async apply(
    actor: string,
    person: ErasedPerson,
    scope?: ReadonlySet<string>,
  ): Promise<{ result: PersonErase; pending: PendingErase }> {
    const { db, audit } = this.deps;
    const inScope = (matchId: string | null) => !scope || (matchId !== null && scope.has(matchId));
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
      .execute()
      .then((rows) => rows.filter((e) => inScope(e.match_id)));
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
    const erasedLabel = `gelöscht am ${formatCalendarDate(berlinCalendarDateOf(now))}`;
    const held = new Set(
      (await db.selectFrom('legal_holds').select('match_id').where('lifted_at', 'is', null).execute()).map(
        (r) => r.match_id,
      ),
    );
    const found = await this.deps.search.find(needle, REQUEST_LIMIT);
    const hits = found.hits.filter((h) => inScope(h.matchId));
    const { names } = found;
    const retained: RetainedItem[] = [];
    const erased: Record<string, number> = {};
    const add = (what: string, n: number) => {
      if (n > 0) erased[what] = (erased[what] ?? 0) + n;
    };
    for (const source of found.truncated) {
      retained.push({
        what: `Mehr als ${REQUEST_LIMIT.toLocaleString('de-DE')} Fundstellen (${PERSON_SOURCE_LABELS[source]}): der Rest beim nächsten Löschen`,
        id: source,
        matchId: null,
        rule: 'Grenze einer Löschung',
        until: null,
      });
    }

    const recipients: ErasedRecipient[] = await db
      .selectFrom('envelope_recipients as r')
      .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
      .select([
        'r.id',
        'r.envelope_id',
        'r.name',
        'r.email',
        'r.typed_name',
        'e.status',
        'e.match_id',
        'e.completed_at',
        'e.updated_at',
        'e.document_id',
        'e.files_deleted_at',
      ])
      .where(isRecipient)
      .execute()
      .then((rows) => rows.filter((r) => inScope(r.match_id)));
    const documentIds = new Set([
      ...hits.filter((h) => h.source === 'document').map((h) => h.id),
      ...recipients.map((r) => r.document_id),
    ]);
    const sorted = await sortDocuments(db, documentIds, held, periods);
    retained.push(...sorted.retained);
    const toDelete = sorted.toDelete;
    const mailDirectory = this.deps.mailDirectory;
    const mailFiles = mailDirectory
      ? await sortMailFiles(
          mailDirectory,
          await this.deps.search.mailFilesNaming(needle),
          held,
          retained,
          scope,
        )
      : [];
    const pending: PendingErase = { recipients: [], holds: [], contracts: [], records: [], terms: [] };
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
      const cleared = await clearAddresses(trx, recipients, needle, held, scope);
      add('IP-Adressen von Unterschriften', cleared.signatures);
      add('IP-Adressen in Ereignissen', cleared.events);
      const ended = endedRecipients(recipients, held);
      await anonymiseRecipients(trx, ended, erasedLabel, actor, now, needle);
      add('Empfänger beendeter Umschläge anonymisiert', ended.length);
      retained.push(...retainedRecipients(recipients, held, periods));
      const terms = [needle, ...names];
      add(
        'Freigabe-Anfragen (Person ersetzt)',
        await eraseApprovals(trx, terms, erasedLabel, held, periods, retained, scope),
      );
      await listWebhookEvents(trx, terms, held, periods, retained, scope);
      const records = await eraseContractRecords(
        trx,
        terms,
        erasedLabel,
        actor,
        now,
        held,
        periods,
        retained,
        scope,
      );
      add('Laufende Verträge (Person ersetzt)', records.changed);
      if (email) {
        add(
          'Umschläge als Absender (Person ersetzt)',
          await eraseSender(trx, email, erasedLabel, held, periods, retained, scope),
        );
      }
      add('Mails im Ausgang', await eraseOutgoingMail(trx, email, needle, retained, scope));
      if (scope) {
        // The account went with the request; what a hold kept of it is its problem reports.
        if (email) add('Problemmeldungen', await eraseReportsAbout(trx, email, scope));
      } else {
        add('Auskünfte (Exporte) über die Person', await deleteExportsOf(trx, [needle, ...names]));
        if (email) {
          // Before the staff entry: its calendar link would go with it unsaid.
          for (const [what, n] of Object.entries(await eraseContractAccount(trx, email, erasedLabel)))
            add(what, n);
          for (const [what, n] of Object.entries(
            await eraseAccount(trx, email, this.deps.configuredAdministrators, retained),
          ))
            add(what, n);
        } else {
          retained.push(...accountHits([...hits]));
        }
      }
      // The built-in store names a person by name rather than address: by the names the address goes by.
      const changed = new Set<string>();
      const kept = new Set<string>();
      for (const term of [needle, ...names]) {
        const matches = await pseudonymiseMatches(trx, term, erasedLabel, held, scope);
        for (const id of matches.changed) changed.add(id);
        for (const id of matches.kept) kept.add(id);
      }
      add('Matches (Person pseudonymisiert)', changed.size);
      for (const matchId of kept) {
        retained.push({
          what: 'Match-Daten',
          id: matchId,
          matchId,
          rule: HOLD_RULE,
          until: null,
        });
      }
      if (this.deps.externalCrm && !scope) {
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
          ...new Set([
            ...hits.flatMap((h) => (h.source === 'document' && h.matchId ? [h.matchId] : [])),
            ...recipients.map((r) => r.match_id),
          ]),
        ].sort();
        retained.push({
          what: `Match-Daten im externen CRM${known.length > 0 ? ` (${known.join(', ')})` : ''}: hier nicht geändert, dort zu löschen`,
          id: 'crm',
          matchId: null,
          rule: 'Externes CRM',
          until: null,
        });
      }
      const auditCount = scope ? 0 : hits.filter((h) => h.source === 'audit').length;
      if (auditCount > 0) {
        retained.push({
          what: `${auditCount} ${auditCount === 1 ? 'Eintrag' : 'Einträge'} im Audit-Log`,
          id: 'audit',
          matchId: null,
          rule: RETENTION_RULE_LABELS.audit_log,
          until: null,
        });
      }
      pending.recipients = recipients
        .filter((r) => !isErasable(r) && r.status === 'completed' && !held.has(r.match_id))
        .map((r) => r.id);
      pending.holds = [
        ...new Set(retained.flatMap((r) => (r.rule === HOLD_RULE && r.matchId ? [r.matchId] : []))),
      ].sort();
      pending.contracts = await contractsNaming(trx, email, terms, held, scope);
      pending.records = records.pending;
      if (pending.contracts.length > 0 || pending.records.length > 0) pending.terms = terms;
      if (!scope) await recordErasure(trx, person, actor, now, pending);
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
    if (mailDirectory) add('Mails im Mail-Ordner', await deleteMailFiles(mailDirectory, mailFiles));
    return {
      result: { erased: Object.entries(erased).map(([what, count]) => ({ what, count })), retained },
      pending,
    };
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
