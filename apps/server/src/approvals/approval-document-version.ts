/**
 * Owns the rule that an approval belongs to one version of one document: the draft envelope follows its
 * document's latest version, and an edit voids an open request for an older version (or takes the
 * pending send from an approved one).
 */
import { sql } from 'kysely';
import type { EnvelopesRepository, Executor } from '../signature/envelopes-repository.js';
import type { ApprovalEvaluation } from './approval-evaluation.js';

export interface DocumentFollowingDeps {
  evaluation: ApprovalEvaluation;
  envelopes: EnvelopesRepository;
}

const VOID_DOCUMENT_CHANGED = 'Dokument nach der Anfrage geändert';

/**
 * The draft envelope takes its document's latest version; a request for an older version becomes
 * void (open) or loses its pending send (approved). Returns the version the envelope carries now.
 */
export async function followDocument(
  deps: DocumentFollowingDeps,
  envelopeId: string,
  executor: Executor,
): Promise<number> {
  const envelope = await executor
    .selectFrom('envelopes')
    .select(['document_id', 'document_version', 'status'])
    .where('id', '=', envelopeId)
    .executeTakeFirstOrThrow();
  if (envelope.status !== 'created') return envelope.document_version;
  const latest = await deps.evaluation.latestVersion(envelope.document_id, executor);
  if (latest.version !== envelope.document_version) {
    await executor
      .updateTable('envelopes')
      .set({ document_version: latest.version, document_sha256: latest.sha256 })
      .where('id', '=', envelopeId)
      .execute();
  }
  const stale = await executor
    .updateTable('approval_requests')
    .set({
      status: 'void',
      void_reason: VOID_DOCUMENT_CHANGED,
      send_state: sql<null>`case when send_state = 'pending' then 'failed' else send_state end`,
      send_due_at: null,
    })
    .where('envelope_id', '=', envelopeId)
    .where('document_version', '<>', latest.version)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'open'),
        eb.and([eb('status', '=', 'approved'), eb('send_state', '=', 'pending')]),
      ]),
    )
    .returning('id')
    .execute();
  for (const _request of stale) {
    await deps.envelopes.addEvent(
      {
        envelopeId,
        type: 'approval_voided',
        actor: { email: '', ip: null, userAgent: null },
        detail: VOID_DOCUMENT_CHANGED,
      },
      executor,
    );
  }
  return latest.version;
}

/**
 * For a document downloaded rather than signed: an open request for a version older than the latest
 * becomes void (the newer version is not released by it). Returns the document's latest version.
 */
export async function followStoredDocument(
  deps: Pick<DocumentFollowingDeps, 'evaluation'>,
  documentId: string,
  executor: Executor,
): Promise<number> {
  const latest = await deps.evaluation.latestVersion(documentId, executor);
  await executor
    .updateTable('approval_requests')
    .set({ status: 'void', void_reason: VOID_DOCUMENT_CHANGED })
    .where('document_id', '=', documentId)
    .where('envelope_id', 'is', null)
    .where('status', '=', 'open')
    .where('document_version', '<>', latest.version)
    .execute();
  return latest.version;
}
