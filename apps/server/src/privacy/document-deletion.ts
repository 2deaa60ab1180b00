import {
  dueAt,
  dueBefore,
  type EnvelopeStatus,
  OPEN_ENVELOPE_STATUSES,
  type RetentionPeriod,
  type RetentionRuleName,
} from '@vertragsgenerator/domain';
import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Database, DeletionRecordsTable } from '../db/schema.js';
import { ruleLabel } from './deletion-records.js';
import { heldMatches } from './legal-holds.js';

export type Periods = Record<RetentionRuleName, RetentionPeriod | null>;

/** The actor of every deletion a rule makes, in the audit log and the envelopes' events. */
export const RETENTION_ACTOR = 'system:aufbewahrung';

/** Why an approval request of a lapsed envelope is void. */
const LAPSED_APPROVAL = 'Umschlag verfallen';

const ENVELOPE_RULES = ['envelope_drafts', 'ended_envelopes', 'completed_contracts'] as const;
type EnvelopeRule = (typeof ENVELOPE_RULES)[number];

/** A condition that is never true: a rule set to never deletes nothing. */
const NEVER = sql<boolean>`false`;

function before(column: string, now: Date, period: RetentionPeriod | null): RawBuilder<boolean> {
  return period ? sql<boolean>`${sql.ref(column)} < ${dueBefore(now, period)}` : NEVER;
}

/**
 * SQL over `e` (an envelope): whether its own rule lets its files go. Running envelopes never do, unless
 * every link they sent expired longer ago than ended envelopes are kept: an expired envelope. A lapsed
 * one has no files left to keep.
 */
function envelopeDue(periods: Periods, now: Date): RawBuilder<boolean> {
  const ended = periods.ended_envelopes;
  const expired = ended
    ? sql<boolean>`(e.status = 'sent' and e.updated_at < ${dueBefore(now, ended)}
        and exists (select 1 from envelope_recipients r where r.envelope_id = e.id and r.token_expires_at is not null)
        and not exists (select 1 from envelope_recipients r where r.envelope_id = e.id
          and r.token_expires_at >= ${dueBefore(now, ended)}))`
    : NEVER;
  return sql<boolean>`(e.status = 'lapsed'
    or (e.status = 'created' and ${before('e.created_at', now, periods.envelope_drafts)})
    or (e.status in ('declined', 'voided', 'failed') and ${before('e.updated_at', now, ended)})
    or ${expired}
    or (e.status = 'completed' and ${before('e.completed_at', now, periods.completed_contracts)}))`;
}

/** The documents step: which rule decides, given the periods, and which documents are due under it. */
export function documentCandidates(step: DocumentStep, periods: Periods, now: Date): RawBuilder<boolean> {
  const noEnvelope = sql<boolean>`not exists (select 1 from envelopes e where e.document_id = d.id)`;
  const notHeld = sql<boolean>`d.match_id not in ${heldMatches}`;
  if (step === 'failed_generations') {
    return sql<boolean>`${notHeld} and d.status <> 'ready' and ${noEnvelope}
      and ${before('d.created_at', now, periods.failed_generations)}`;
  }
  if (step === 'generated_documents') {
    return sql<boolean>`${notHeld} and d.status = 'ready' and ${noEnvelope}
      and ${before('d.created_at', now, periods.generated_documents)}`;
  }
  return sql<boolean>`${notHeld} and not ${noEnvelope}
    and not exists (select 1 from envelopes e where e.document_id = d.id and not ${envelopeDue(periods, now)})`;
}

export type DocumentStep = 'failed_generations' | 'generated_documents' | 'envelopes';

interface EnvelopeRow {
  id: string;
  document_id: string;
  status: EnvelopeStatus;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  sealed_sha256: string | null;
  certificate_sha256: string | null;
}

/** The rule that lets an envelope's files go last: the one a document with several envelopes is deleted by. */
function envelopeRule(envelope: EnvelopeRow, periods: Periods): { rule: EnvelopeRule; due: number } {
  // Its files are gone already: it never decides which rule a document goes by.
  if (envelope.status === 'lapsed') return { rule: 'envelope_drafts', due: Number.NEGATIVE_INFINITY };
  const [rule, start] =
    envelope.status === 'created'
      ? (['envelope_drafts', envelope.created_at] as const)
      : envelope.status === 'completed'
        ? (['completed_contracts', envelope.completed_at ?? envelope.updated_at] as const)
        : (['ended_envelopes', envelope.updated_at] as const);
  const period = periods[rule];
  return { rule, due: period ? dueAt(start, period).getTime() : Number.POSITIVE_INFINITY };
}

export interface DeletedCounts {
  documents: number;
  versions: number;
  envelopes: number;
}

/**
 * Deletes up to `limit` due documents of one step in one transaction: their versions and rows, their
 * envelopes' files (sealed PDF, certificate, drawn signatures), with a deletion record of each and its
 * SHA-256, an event on each envelope, and one audit entry per rule. Rows and files live in the same
 * database, so a crash leaves a document either whole or gone. The envelopes and their events stay.
 */
export async function deleteDocumentBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  step: DocumentStep,
  periods: Periods,
  now: Date,
  limit: number,
  /** An erase on request: exactly these documents, under its own rule. */
  only?: { ids: string[]; rule: string; actor: string },
): Promise<Map<string, DeletedCounts>> {
  if (only && only.ids.length === 0) return new Map();
  const documents = await trx
    .selectFrom('documents as d')
    .select(['d.id', 'd.match_id', 'd.doc_key', 'd.data_sha256'])
    .where(only ? sql<boolean>`d.id in (${sql.join(only.ids)})` : documentCandidates(step, periods, now))
    .orderBy('d.created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  const result = new Map<string, DeletedCounts>();
  if (documents.length === 0) return result;
  const ids = documents.map((d) => d.id);
  const versions = await trx
    .selectFrom('document_versions')
    .select(['document_id', 'version', 'sha256'])
    .where('document_id', 'in', ids)
    .execute();
  const envelopes: EnvelopeRow[] = await trx
    .selectFrom('envelopes')
    .select([
      'id',
      'document_id',
      'status',
      'created_at',
      'updated_at',
      'completed_at',
      'sealed_sha256',
      sql<string | null>`encode(sha256(certificate), 'hex')`.as('certificate_sha256'),
    ])
    .where('document_id', 'in', ids)
    .forUpdate()
    .execute();

  const ruleOf = new Map<string, string>();
  for (const document of documents) {
    if (only) {
      ruleOf.set(document.id, only.rule);
    } else if (step !== 'envelopes') {
      ruleOf.set(document.id, step);
      continue;
    }
    const decisive = envelopes
      .filter((e) => e.document_id === document.id)
      .map((e) => envelopeRule(e, periods))
      .sort((a, b) => b.due - a.due)[0];
    ruleOf.set(document.id, decisive?.rule ?? 'ended_envelopes');
  }
  const records: Insertable<DeletionRecordsTable>[] = [];
  const record = (
    rule: string,
    kind: string,
    subject: string,
    matchId: string,
    docKey: string,
    sha: string | null,
  ) =>
    records.push({
      at: now,
      rule,
      kind,
      subject_id: subject,
      match_id: matchId,
      doc_key: docKey,
      sha256: sha,
    });
  for (const document of documents) {
    const rule = ruleOf.get(document.id) ?? step;
    const counts = result.get(rule) ?? { documents: 0, versions: 0, envelopes: 0 };
    result.set(rule, counts);
    counts.documents++;
    const own = versions.filter((v) => v.document_id === document.id);
    const latest = own.sort((a, b) => b.version - a.version)[0];
    record(
      rule,
      'document',
      document.id,
      document.match_id,
      document.doc_key,
      latest?.sha256 ?? document.data_sha256,
    );
    for (const version of own) {
      counts.versions++;
      record(
        rule,
        'document_version',
        `${document.id}/${version.version}`,
        document.match_id,
        document.doc_key,
        version.sha256,
      );
    }
    for (const envelope of envelopes.filter((e) => e.document_id === document.id)) {
      counts.envelopes++;
      if (envelope.sealed_sha256) {
        record(rule, 'sealed_pdf', envelope.id, document.match_id, document.doc_key, envelope.sealed_sha256);
      }
      if (envelope.certificate_sha256) {
        record(
          rule,
          'certificate',
          envelope.id,
          document.match_id,
          document.doc_key,
          envelope.certificate_sha256,
        );
      }
    }
  }
  await trx.insertInto('deletion_records').values(records).execute();
  if (envelopes.length > 0) {
    const envelopeIds = envelopes.map((e) => e.id);
    await trx
      .updateTable('envelopes')
      .set({
        sealed_pdf: null,
        certificate: null,
        seal_due_at: null,
        seal_renew_at: null,
        files_deleted_at: now,
      })
      .where('id', 'in', envelopeIds)
      .execute();
    // One update per rule, not per envelope: a batch stays a handful of statements.
    const byRule = new Map<string, string[]>();
    for (const envelope of envelopes) {
      const rule = ruleOf.get(envelope.document_id) ?? step;
      byRule.set(rule, [...(byRule.get(rule) ?? []), envelope.id]);
    }
    for (const [rule, ids] of byRule) {
      await trx.updateTable('envelopes').set({ files_deleted_rule: rule }).where('id', 'in', ids).execute();
    }
    await trx
      .updateTable('envelope_recipients')
      .set({ drawn_signature: null })
      .where('envelope_id', 'in', envelopeIds)
      .execute();
    await trx
      .insertInto('envelope_events')
      .values(
        envelopes.map((envelope) => {
          const rule = ruleOf.get(envelope.document_id) ?? step;
          return {
            envelope_id: envelope.id,
            type: 'files_deleted' as const,
            actor: only?.actor ?? RETENTION_ACTOR,
            detail: `Regel „${ruleLabel(rule)}“`,
            at: now,
          };
        }),
      )
      .execute();
    await lapseOpenEnvelopes(
      trx,
      envelopes.filter((e) => OPEN_ENVELOPE_STATUSES.includes(e.status)),
      (envelope) => ruleOf.get(envelope.document_id) ?? step,
      now,
    );
  }
  await trx.deleteFrom('documents').where('id', 'in', ids).execute();
  for (const [rule, counts] of result) {
    await audit.record(
      {
        actor: only?.actor ?? RETENTION_ACTOR,
        action: only ? 'person.erase.delete' : 'retention.delete',
        subject: ruleLabel(rule),
        newValue: describeCounts(counts),
      },
      trx,
    );
  }
  return result;
}

/**
 * A draft or an expired envelope whose document a rule deleted has nothing left to send, sign or void:
 * it lapses — with a history entry naming the rule, and its approval requests still waiting void — in
 * the transaction that deleted its files, so that it is never open without them.
 */
async function lapseOpenEnvelopes(
  trx: Kysely<Database>,
  envelopes: readonly EnvelopeRow[],
  ruleOf: (envelope: EnvelopeRow) => string,
  now: Date,
): Promise<void> {
  if (envelopes.length === 0) return;
  const ids = envelopes.map((e) => e.id);
  await trx
    .updateTable('envelopes')
    .set({ status: 'lapsed', updated_at: now })
    .where('id', 'in', ids)
    .execute();
  await trx
    .insertInto('envelope_events')
    .values(
      envelopes.map((envelope) => ({
        envelope_id: envelope.id,
        type: 'lapsed' as const,
        actor: RETENTION_ACTOR,
        detail: `Regel „${ruleLabel(ruleOf(envelope))}“`,
        at: now,
      })),
    )
    .execute();
  await trx
    .updateTable('approval_requests')
    .set({
      status: 'void',
      void_reason: LAPSED_APPROVAL,
      send_state: sql<null>`case when send_state = 'pending' then 'failed' else send_state end`,
      send_due_at: null,
    })
    .where('envelope_id', 'in', ids)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'open'),
        eb.and([eb('status', '=', 'approved'), eb('send_state', '=', 'pending')]),
      ]),
    )
    .execute();
}

export function describeCounts({ documents, versions, envelopes }: DeletedCounts): string {
  const parts = [
    `${documents} ${documents === 1 ? 'Dokument' : 'Dokumente'}`,
    `${versions} ${versions === 1 ? 'Version' : 'Versionen'}`,
  ];
  if (envelopes > 0) parts.push(`Dateien von ${envelopes} ${envelopes === 1 ? 'Umschlag' : 'Umschlägen'}`);
  return parts.join(', ');
}
