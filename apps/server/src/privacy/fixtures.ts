import { randomBytes } from 'node:crypto';
import type { EnvelopeStatus, RecipientRole, RecipientStatus } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { DocumentStatus } from '../db/schema.js';
import { sha256Hex } from '../shared/sha256.js';

/** Stored records at chosen moments, as months of use would leave them: for the privacy tests and the bench. */

export async function storeDocument(
  db: Db,
  {
    matchId,
    createdAt,
    status = 'ready',
    versions = 1,
    data = {},
    createdBy = 'berater@demo.local',
    bytes = 64,
  }: {
    matchId: string;
    createdAt: Date;
    status?: DocumentStatus;
    versions?: number;
    data?: Record<string, unknown>;
    createdBy?: string;
    bytes?: number;
  },
): Promise<string> {
  const { id } = await db
    .insertInto('documents')
    .values({
      match_id: matchId,
      doc_key: 'de-wm-pp-rv',
      form: 'docusign',
      created_by: createdBy,
      created_at: createdAt,
      status,
      error: status === 'failed' ? 'render_failed' : null,
      file_name: 'Vertrag.docx',
      data: JSON.stringify(data),
      template_sha256: null,
      data_sha256: sha256Hex(new TextEncoder().encode(JSON.stringify(data))),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (status === 'ready') {
    for (let version = 1; version <= versions; version++) {
      const content = randomBytes(bytes);
      await db
        .insertInto('document_versions')
        .values({
          document_id: id,
          version,
          content,
          sha256: sha256Hex(content),
          size: content.length,
          created_by: createdBy,
          created_at: createdAt,
        })
        .execute();
    }
  }
  return id;
}

export interface StoredRecipient {
  name: string;
  email: string;
  role?: RecipientRole;
  status?: RecipientStatus;
  tokenExpiresAt?: Date | null;
  signedIp?: string | null;
}

export async function storeEnvelope(
  db: Db,
  {
    documentId,
    matchId,
    status,
    createdAt,
    updatedAt = createdAt,
    completedAt = null,
    recipients = [],
  }: {
    documentId: string;
    matchId: string;
    status: EnvelopeStatus;
    createdAt: Date;
    updatedAt?: Date;
    completedAt?: Date | null;
    recipients?: StoredRecipient[];
  },
): Promise<string> {
  const sealed = status === 'completed' ? randomBytes(128) : null;
  const { id } = await db
    .insertInto('envelopes')
    .values({
      document_id: documentId,
      document_version: 1,
      document_sha256: 'f'.repeat(64),
      match_id: matchId,
      doc_key: 'de-wm-pp-rv',
      provider: 'builtin',
      status,
      subject: 'Bitte unterschreiben',
      message: '',
      sender_name: 'Berta Berater',
      sender_email: 'berater@demo.local',
      created_by: 'berater@demo.local',
      created_at: createdAt,
      updated_at: updatedAt,
      completed_at: completedAt,
      sealed_pdf: sealed,
      sealed_sha256: sealed ? sha256Hex(sealed) : null,
      certificate: sealed ? randomBytes(64) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let position = 0;
  for (const recipient of recipients) {
    position++;
    await db
      .insertInto('envelope_recipients')
      .values({
        envelope_id: id,
        position,
        role: recipient.role ?? 'Projektpartner',
        name: recipient.name,
        email: recipient.email,
        routing_order: position,
        status: recipient.status ?? (status === 'completed' ? 'signed' : 'sent'),
        token_expires_at: recipient.tokenExpiresAt ?? null,
        signed_ip: recipient.signedIp ?? null,
        signed_at: status === 'completed' ? completedAt : null,
        typed_name: status === 'completed' ? recipient.name : null,
      })
      .execute();
  }
  await db
    .insertInto('envelope_events')
    .values({ envelope_id: id, type: 'created', actor: 'berater@demo.local', at: createdAt })
    .execute();
  return id;
}
