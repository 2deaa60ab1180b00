import type { ApprovalStatus, HistoryEntry } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { documentStatus } from '../documents/documents-repository.js';
import { envelopeSeal } from './overview/envelope-seal.js';

/**
 * The document history of a match (GET /backend/matches/:matchId/documents): its documents newest first,
 * each with its newest envelope, that envelope's signers, its seal and its newest approval request; a
 * document downloaded rather than signed with its own newest approval request.
 */
export async function matchHistory(db: Db, matchId: string): Promise<HistoryEntry[]> {
  const documents = await db
    .selectFrom('documents')
    .leftJoin(
      (qb) =>
        qb
          .selectFrom('document_versions')
          .select(['document_id', (eb) => eb.fn.max('version').as('version')])
          .groupBy('document_id')
          .as('latest'),
      (join) => join.onRef('latest.document_id', '=', 'documents.id'),
    )
    .select([
      'documents.id',
      'documents.doc_key',
      'documents.form',
      'documents.file_name',
      'documents.created_by',
      'documents.created_at',
      'documents.template_version',
      documentStatus,
      'latest.version',
    ])
    .where('documents.match_id', '=', matchId)
    .orderBy('documents.created_at', 'desc')
    .orderBy('documents.id')
    .execute();
  const envelopes = await db
    .selectFrom('envelopes')
    .select([
      'id',
      'document_id',
      'provider',
      'status',
      'updated_at',
      'seal_level',
      'seal_error',
      (eb) => eb('certificate', 'is not', null).as('has_certificate'),
      (eb) => eb('sealed_pdf', 'is not', null).as('has_sealed_pdf'),
    ])
    .where('match_id', '=', matchId)
    .orderBy('created_at', 'desc')
    .execute();
  const recipients =
    envelopes.length === 0
      ? []
      : await db
          .selectFrom('envelope_recipients')
          .select(['envelope_id', 'role', 'name', 'status'])
          .where(
            'envelope_id',
            'in',
            envelopes.map((e) => e.id),
          )
          .orderBy('position')
          .execute();
  const approvals = await newestApprovals(
    db,
    documents.map((d) => d.id),
  );
  return documents.map((d) => {
    // A retried generation may leave a failed envelope and a later one on the same document: the
    // newest tells the story.
    const envelope = envelopes.find((e) => e.document_id === d.id);
    return {
      documentId: d.id,
      docKey: d.doc_key,
      form: d.form,
      fileName: d.file_name,
      createdBy: d.created_by,
      createdAt: d.created_at.toISOString(),
      status: d.status,
      version: d.version === null ? null : Number(d.version),
      templateVersion: d.template_version,
      approval: approvals.ofDocument.get(d.id) ?? null,
      envelope: envelope
        ? {
            id: envelope.id,
            provider: envelope.provider,
            status: envelope.status,
            updatedAt: envelope.updated_at.toISOString(),
            recipients: recipients
              .filter((r) => r.envelope_id === envelope.id)
              .map((r) => ({ role: r.role, name: r.name, status: r.status })),
            certificateAvailable: Boolean(envelope.has_certificate),
            signedPdfAvailable: Boolean(envelope.has_sealed_pdf),
            seal: envelopeSeal({
              provider: envelope.provider,
              completed: envelope.status === 'completed',
              sealed: Boolean(envelope.has_sealed_pdf),
              seal_level: envelope.seal_level,
              seal_error: envelope.seal_error,
            }),
            approval: approvals.ofEnvelope.get(envelope.id) ?? null,
          }
        : null,
    };
  });
}

/**
 * The status of the newest approval request (newest `requested_at`) of each envelope, and of each
 * document's own requests (those for its download, without an envelope), in one query by document.
 */
async function newestApprovals(
  db: Db,
  documentIds: string[],
): Promise<{ ofEnvelope: Map<string, ApprovalStatus>; ofDocument: Map<string, ApprovalStatus> }> {
  const ofEnvelope = new Map<string, ApprovalStatus>();
  const ofDocument = new Map<string, ApprovalStatus>();
  if (documentIds.length === 0) return { ofEnvelope, ofDocument };
  const rows = await db
    .selectFrom('approval_requests')
    .select(['envelope_id', 'document_id', 'status'])
    .where('document_id', 'in', documentIds)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const row of rows) {
    const [map, key] = row.envelope_id ? [ofEnvelope, row.envelope_id] : [ofDocument, row.document_id];
    if (!map.has(key)) map.set(key, row.status);
  }
  return { ofEnvelope, ofDocument };
}
