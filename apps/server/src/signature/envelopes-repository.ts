import type {
  EnvelopeEventType,
  EnvelopeView,
  HistoryEntry,
  RecipientInput,
  RecipientStatus,
} from '@vertragsgenerator/domain';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { EventSink } from '../shared/product-events.js';
import {
  type ProviderReport,
  type ProviderReportOutcome,
  recordConnectEvent,
} from './docusign/connect-events.js';
import { matchHistory } from './match-history.js';

/** Who caused an event, as recorded with it: the user or signer, their address and browser. */
export interface Actor {
  email: string;
  ip: string | null;
  userAgent: string | null;
}

export interface NewEnvelope {
  documentId: string;
  documentVersion: number;
  documentSha256: string;
  matchId: string;
  /** The customer's name from the match, for the overview's search. */
  customer: string;
  docKey: string;
  provider: 'builtin' | 'docusign';
  subject: string;
  message: string;
  sender: { name: string; email: string };
  recipients: RecipientInput[];
  createdBy: Actor;
  /** The browser's idempotency key for this generation. */
  requestKey: string | null;
}

export type Executor = Db | Transaction<Database>;

export interface EnvelopeEventInput {
  envelopeId: string;
  recipientId?: string | null;
  type: EnvelopeEventType;
  actor: Actor;
  detail?: string | null;
}

/** Signers wait for their turn; CC recipients only ever get a copy. */
export const initialRecipientStatus = (recipient: RecipientInput): RecipientStatus =>
  recipient.role === 'CC' ? 'copy' : 'waiting';

/**
 * Envelopes, their recipients and events: every state change is stored with an event that says who,
 * when, from which address and browser (the status history of the envelope).
 */
export class EnvelopesRepository {
  constructor(
    private readonly db: Db,
    /** Told of every event in the transaction that records it (webhooks). */
    private readonly events?: EventSink<Kysely<Database>>,
  ) {}

  /**
   * Records a new envelope with its `created` event. A request key already used by the same user
   * returns that envelope's id with `existing: true` instead (the browser retried).
   */
  async create(envelope: NewEnvelope): Promise<{ id: string; existing: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('envelopes')
        .values({
          document_id: envelope.documentId,
          document_version: envelope.documentVersion,
          document_sha256: envelope.documentSha256,
          match_id: envelope.matchId,
          customer: envelope.customer,
          doc_key: envelope.docKey,
          provider: envelope.provider,
          status: 'created',
          subject: envelope.subject,
          message: envelope.message,
          sender_name: envelope.sender.name,
          sender_email: envelope.sender.email,
          created_by: envelope.createdBy.email,
          request_key: envelope.requestKey,
        })
        .onConflict((oc) => oc.columns(['created_by', 'request_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        const existing = await this.findByRequestKey(
          envelope.createdBy.email,
          envelope.requestKey ?? '',
          trx,
        );
        if (!existing) throw new Error('envelope request key conflict without an envelope');
        return { id: existing.id, existing: true };
      }
      await this.replaceRecipients(inserted.id, envelope.recipients, trx);
      await this.addEvent({ envelopeId: inserted.id, type: 'created', actor: envelope.createdBy }, trx);
      return { id: inserted.id, existing: false };
    });
  }

  findByRequestKey(createdBy: string, requestKey: string, executor: Executor = this.db) {
    return executor
      .selectFrom('envelopes')
      .select(['id', 'external_id', 'status', 'document_id', 'error'])
      .where('created_by', '=', createdBy)
      .where('request_key', '=', requestKey)
      .executeTakeFirst();
  }

  /** Frees a request key held by a failed envelope, so a retry of the same click can try again. */
  async releaseFailedRequestKey(createdBy: string, requestKey: string): Promise<void> {
    await this.db
      .updateTable('envelopes')
      .set({ request_key: null })
      .where('created_by', '=', createdBy)
      .where('request_key', '=', requestKey)
      .where('status', '=', 'failed')
      .execute();
  }

  async replaceRecipients(envelopeId: string, recipients: RecipientInput[], executor: Executor) {
    await executor.deleteFrom('envelope_recipients').where('envelope_id', '=', envelopeId).execute();
    await executor
      .insertInto('envelope_recipients')
      .values(
        recipients.map((recipient, position) => ({
          envelope_id: envelopeId,
          position,
          role: recipient.role,
          name: recipient.name,
          email: recipient.email,
          routing_order: recipient.routingOrder,
          status: initialRecipientStatus(recipient),
        })),
      )
      .execute();
  }

  async addEvent(event: EnvelopeEventInput, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('envelope_events')
      .values({
        envelope_id: event.envelopeId,
        recipient_id: event.recipientId ?? null,
        type: event.type,
        actor: event.actor.email,
        ip: event.actor.ip,
        user_agent: event.actor.userAgent,
        detail: event.detail ?? null,
      })
      .execute();
    await this.events?.record(
      {
        kind: 'envelope.event',
        envelopeId: event.envelopeId,
        type: event.type,
        recipientId: event.recipientId ?? null,
        detail: event.detail ?? null,
      },
      executor,
    );
    await executor
      .updateTable('envelopes')
      .set({ updated_at: new Date() })
      .where('id', '=', event.envelopeId)
      .execute();
  }

  /** The provider accepted the envelope: its id there. */
  async setExternalId(id: string, externalId: string): Promise<void> {
    await this.db.updateTable('envelopes').set({ external_id: externalId }).where('id', '=', id).execute();
  }

  /** The provider refused or failed: the envelope stays on record as `failed` with the reason. */
  async markFailed(id: string, error: string, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('envelopes').set({ status: 'failed', error }).where('id', '=', id).execute();
      await this.addEvent({ envelopeId: id, type: 'failed', actor, detail: error }, trx);
    });
  }

  /**
   * An event DocuSign Connect reported, recorded in the envelope's history; its status is taken over
   * only when it is further along than the envelope's (docusign/connect-events.ts).
   */
  recordProviderStatus(report: ProviderReport): Promise<ProviderReportOutcome> {
    return recordConnectEvent(
      this.db,
      report,
      (event, executor) => this.addEvent(event, executor),
      async (event, executor) => this.events?.record(event, executor),
    );
  }

  /** The sender view's data, or undefined for an unknown id. */
  async view(id: string, pdfAvailable: boolean): Promise<EnvelopeView | undefined> {
    // A left join: a retention rule may have deleted the document, and the envelope stays on record.
    const envelope = await this.db
      .selectFrom('envelopes')
      .leftJoin('documents', 'documents.id', 'envelopes.document_id')
      .select([
        'envelopes.id',
        'envelopes.provider',
        'envelopes.status',
        'envelopes.match_id',
        'envelopes.doc_key',
        'envelopes.document_id',
        'envelopes.document_sha256',
        'envelopes.subject',
        'envelopes.message',
        'envelopes.sender_name',
        'envelopes.sender_email',
        'envelopes.created_by',
        'envelopes.created_at',
        'documents.file_name',
      ])
      .where('envelopes.id', '=', id)
      .executeTakeFirst();
    if (!envelope) return undefined;
    const [recipients, events] = await Promise.all([
      this.recipients(id),
      this.db.selectFrom('envelope_events').selectAll().where('envelope_id', '=', id).orderBy('id').execute(),
    ]);
    return {
      id: envelope.id,
      provider: envelope.provider,
      status: envelope.status,
      matchId: envelope.match_id,
      docKey: envelope.doc_key,
      documentId: envelope.document_id,
      fileName: envelope.file_name,
      documentSha256: envelope.document_sha256,
      subject: envelope.subject,
      message: envelope.message,
      sender: { name: envelope.sender_name, email: envelope.sender_email },
      createdBy: envelope.created_by,
      createdAt: envelope.created_at.toISOString(),
      recipients: recipients.map((r) => ({
        id: r.id,
        role: r.role,
        name: r.name,
        email: r.email,
        routingOrder: r.routing_order,
        status: r.status,
        signedAt: r.signed_at?.toISOString() ?? null,
        declineReason: r.decline_reason,
        linkExpiresAt: r.token_expires_at?.toISOString() ?? null,
      })),
      events: events.map((e) => ({
        type: e.type,
        at: e.at.toISOString(),
        actor: e.actor,
        ip: e.ip,
        userAgent: e.user_agent,
        detail: e.detail,
      })),
      pdfAvailable,
    };
  }

  recipients(envelopeId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('envelope_recipients')
      .selectAll()
      .where('envelope_id', '=', envelopeId)
      .orderBy('position')
      .execute();
  }

  /** The envelope row and its document's file name; `lock` holds the row until the transaction ends. */
  withFileName(envelopeId: string, executor: Executor, { lock }: { lock: boolean }) {
    const query = executor
      .selectFrom('envelopes')
      .innerJoin('documents', 'documents.id', 'envelopes.document_id')
      .selectAll('envelopes')
      .select('documents.file_name')
      .where('envelopes.id', '=', envelopeId);
    return (lock ? query.forUpdate('envelopes') : query).executeTakeFirstOrThrow();
  }

  /** The sealed PDF of a completed envelope; null until the sealer has made it. */
  async sealedPdf(id: string): Promise<Uint8Array | null> {
    const row = await this.db
      .selectFrom('envelopes')
      .select('sealed_pdf')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.sealed_pdf ?? null;
  }

  /** What access checks and file answers need; `file_name` is null once the document was deleted. */
  summary(id: string) {
    return this.db
      .selectFrom('envelopes')
      .leftJoin('documents', 'documents.id', 'envelopes.document_id')
      .select([
        'envelopes.id',
        'envelopes.doc_key',
        'envelopes.created_by',
        'envelopes.status',
        'envelopes.provider',
        'envelopes.document_id',
        'envelopes.document_version',
        'envelopes.certificate',
        'envelopes.match_id',
        'documents.file_name',
      ])
      .where('envelopes.id', '=', id)
      .executeTakeFirst();
  }

  /** The document history of a match: documents newest first, each with its envelope. */
  history(matchId: string): Promise<HistoryEntry[]> {
    return matchHistory(this.db, matchId);
  }
}
