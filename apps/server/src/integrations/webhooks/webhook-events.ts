import { approvalReasonText, type WebhookEventType } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventSink, ProductEvent } from '../../shared/product-events.js';
import { sealedPdfPath } from './sealed-pdf-access.js';

/** The envelope history entries other systems are told of, and as what. */
const ENVELOPE_EVENTS: Partial<Record<string, WebhookEventType>> = {
  sent: 'envelope.sent',
  signed: 'envelope.signed',
  declined: 'envelope.declined',
  voided: 'envelope.voided',
  expired: 'envelope.expired',
  approval_requested: 'approval.requested',
  approved: 'approval.approved',
  approval_declined: 'approval.declined',
};

function webhookType(event: ProductEvent): WebhookEventType | undefined {
  switch (event.kind) {
    case 'document.generated':
      return 'document.generated';
    case 'template.published':
      return 'template.published';
    case 'clause.published':
      return 'clause.published';
    // The completion is reported once the sealed PDF exists: a receiver can fetch what it is told of.
    case 'envelope.sealed':
      return 'envelope.completed';
    case 'envelope.event':
      return ENVELOPE_EVENTS[event.type];
    case 'document.approval':
      return ENVELOPE_EVENTS[event.type];
    case 'contract.event':
      return `contract.${event.type}`;
    case 'batch.completed':
      return 'batch.completed';
    case 'review.event':
      return `review.${event.type}`;
  }
}

/**
 * The events that must arrive in order share a key: an envelope's, and a document's without envelope
 * (its generation before its approval's request, the request before the decision). Templates and clauses
 * have none.
 */
function orderingKeyOf(event: ProductEvent): string | null {
  if ('envelopeId' in event) return `envelope:${event.envelopeId}`;
  if ('documentId' in event) return `document:${event.documentId}`;
  if ('contractId' in event) return `contract:${event.contractId}`;
  return null;
}

/** A receiver of events besides the registered endpoints (the CRM's write-back), with its own outbox run. */
export interface OtherDeliveryTarget {
  target: 'crm';
  wants(type: WebhookEventType): boolean;
  /** Called after an event for it was recorded: its outbox may start a run soon (after the commit). */
  recorded(): void;
}

/**
 * The webhooks' side of the product's events: in the transaction that records a fact, stores the
 * event and one delivery for each endpoint that wants it, and one for each other target that wants it
 * (the CRM's write-back), in the outbox; so a fact is never without its report nor a report without its
 * fact. Nothing is written when no one wants the type.
 */
export class WebhookEventSink implements EventSink<Kysely<Database>> {
  constructor(
    private readonly publicUrl: string,
    /** Called after each recorded event: the outbox may start a run soon (after the commit). */
    private readonly recorded: () => void = () => {},
    private readonly otherTargets: readonly OtherDeliveryTarget[] = [],
  ) {}

  /**
   * The endpoints and the types they want, read once per transaction: a transaction that records many
   * events (the reminder run's batch of a hundred contracts) asks once, not once per event.
   */
  private readonly endpointsOfTransaction = new WeakMap<
    Kysely<Database>,
    Promise<{ id: string; events: string[] }[]>
  >();

  private endpoints(trx: Kysely<Database>): Promise<{ id: string; events: string[] }[]> {
    const read = () => trx.selectFrom('webhook_endpoints').select(['id', 'events']).execute();
    if (!trx.isTransaction) return read();
    let endpoints = this.endpointsOfTransaction.get(trx);
    if (!endpoints) {
      endpoints = read();
      this.endpointsOfTransaction.set(trx, endpoints);
    }
    return endpoints;
  }

  async record(event: ProductEvent, trx: Kysely<Database>): Promise<void> {
    const type = webhookType(event);
    if (!type) return;
    const endpoints = (await this.endpoints(trx)).filter((endpoint) => endpoint.events.includes(type));
    const others = this.otherTargets.filter((other) => other.wants(type));
    if (endpoints.length === 0 && others.length === 0) return;
    const data = await this.data(event, trx);
    if (!data) return;
    const inserted = await trx
      .insertInto('webhook_events')
      .values({
        type,
        payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const orderingKey = orderingKeyOf(event);
    await trx
      .insertInto('webhook_deliveries')
      .values([
        ...endpoints.map((e) => ({ event_id: inserted.id, endpoint_id: e.id, ordering_key: orderingKey })),
        ...others.map((o) => ({
          event_id: inserted.id,
          endpoint_id: null,
          target: o.target,
          ordering_key: orderingKey,
        })),
      ])
      .execute();
    if (endpoints.length > 0) this.recorded();
    for (const other of others) other.recorded();
  }

  /** The payload's `data`: what a receiver needs to act, without the document's content. */
  private async data(
    event: ProductEvent,
    trx: Kysely<Database>,
  ): Promise<Record<string, unknown> | undefined> {
    switch (event.kind) {
      case 'template.published':
        return { template: event.name, version: event.version, publishedBy: event.publishedBy };
      case 'clause.published':
        return { clause: event.key, version: event.version, publishedBy: event.publishedBy };
      case 'document.generated': {
        const row = await trx
          .selectFrom('documents')
          .select(['id', 'match_id', 'doc_key', 'form', 'file_name', 'created_by', 'template_version'])
          .where('id', '=', event.documentId)
          .executeTakeFirst();
        return (
          row && {
            documentId: row.id,
            matchId: row.match_id,
            docKey: row.doc_key,
            form: row.form,
            fileName: row.file_name,
            createdBy: row.created_by,
            templateVersion: row.template_version,
          }
        );
      }
      case 'document.approval':
        return documentApprovalData(event.requestId, trx);
      case 'contract.event':
        return contractData(event, trx);
      case 'review.event': {
        const document = await trx
          .selectFrom('documents')
          .select(['match_id', 'doc_key'])
          .where('id', '=', event.documentId)
          .executeTakeFirst();
        return (
          document && {
            reviewId: event.reviewId,
            documentId: event.documentId,
            matchId: document.match_id,
            docKey: document.doc_key,
            round: event.round,
            version: event.version,
            sha256: event.sha256,
          }
        );
      }
      case 'batch.completed': {
        const batch = await trx
          .selectFrom('batches')
          .select(['id', 'doc_key', 'status', 'created_by', 'started_at', 'finished_at'])
          .where('id', '=', event.batchId)
          .executeTakeFirst();
        return (
          batch && {
            batchId: batch.id,
            docKey: batch.doc_key,
            status: batch.status,
            createdBy: batch.created_by,
            startedAt: batch.started_at?.toISOString() ?? null,
            finishedAt: batch.finished_at?.toISOString() ?? null,
            counts: event.counts,
          }
        );
      }
      case 'envelope.event':
      case 'envelope.sealed': {
        const envelope = await trx
          .selectFrom('envelopes')
          .select(['id', 'match_id', 'doc_key', 'document_id', 'provider', 'status', 'created_by'])
          .where('id', '=', event.envelopeId)
          .executeTakeFirst();
        if (!envelope) return undefined;
        const common = {
          envelopeId: envelope.id,
          matchId: envelope.match_id,
          docKey: envelope.doc_key,
          documentId: envelope.document_id,
          provider: envelope.provider,
          status: envelope.status,
          createdBy: envelope.created_by,
        };
        if (event.kind === 'envelope.sealed') {
          return {
            ...common,
            sealedPdf: {
              sha256: event.sha256,
              url: `${this.publicUrl}${sealedPdfPath(envelope.id)}`,
            },
          };
        }
        const recipient = event.recipientId
          ? await trx
              .selectFrom('envelope_recipients')
              .select(['id', 'role', 'name', 'email', 'routing_order', 'signed_at'])
              .where('id', '=', event.recipientId)
              .executeTakeFirst()
          : undefined;
        return {
          ...common,
          ...(recipient
            ? {
                recipient: {
                  id: recipient.id,
                  role: recipient.role,
                  name: recipient.name,
                  email: recipient.email,
                  routingOrder: recipient.routing_order,
                  signedAt: recipient.signed_at?.toISOString() ?? null,
                },
              }
            : {}),
          ...(['declined', 'voided', 'approved', 'approval_declined'].includes(event.type)
            ? { reason: event.detail }
            : {}),
        };
      }
    }
  }
}

/**
 * An approval event of a document without envelope: the document and version it is about, who asked and
 * why, and for a decision who decided and their comment (`reason`, as for an envelope's decision).
 */
async function documentApprovalData(
  requestId: string,
  trx: Kysely<Database>,
): Promise<Record<string, unknown> | undefined> {
  const request = await trx
    .selectFrom('approval_requests')
    .leftJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
    .select([
      'approval_requests.id',
      'approval_requests.document_id',
      'approval_requests.document_version',
      'approval_requests.match_id',
      'approval_requests.doc_key',
      'approval_requests.file_name',
      'approval_requests.requested_by',
      'approval_requests.reasons',
      'approval_requests.status',
      'approval_decisions.decided_by',
      'approval_decisions.comment',
    ])
    .where('approval_requests.id', '=', requestId)
    .executeTakeFirst();
  if (!request) return undefined;
  return {
    approvalId: request.id,
    documentId: request.document_id,
    documentVersion: request.document_version,
    matchId: request.match_id,
    docKey: request.doc_key,
    fileName: request.file_name,
    requestedBy: request.requested_by,
    reasons: request.reasons.map(approvalReasonText),
    status: request.status,
    ...(request.decided_by ? { decidedBy: request.decided_by, reason: request.comment } : {}),
  };
}

/** A contract's event: the record's own data, never a person's beyond the parties the contract names. */
async function contractData(
  event: Extract<ProductEvent, { kind: 'contract.event' }>,
  trx: Kysely<Database>,
): Promise<Record<string, unknown> | undefined> {
  const row = await trx
    .selectFrom('contract_records')
    .select([
      'id',
      'match_id',
      'kind',
      'company',
      'partner_type',
      'counterparty',
      'start_date',
      'end_date',
      'last_notice_day',
      'envelope_id',
      'document_id',
      'parent_id',
      'relation',
    ])
    .where('id', '=', event.contractId)
    .executeTakeFirst();
  return (
    row && {
      contractId: row.id,
      matchId: row.match_id,
      kind: row.kind,
      company: row.company,
      partnerType: row.partner_type,
      counterparty: row.counterparty,
      startDate: row.start_date,
      endDate: row.end_date,
      lastNoticeDay: row.last_notice_day,
      envelopeId: row.envelope_id,
      documentId: row.document_id,
      parentId: row.parent_id,
      relation: row.relation,
      ...(event.deadline ? { deadline: event.deadline } : {}),
    }
  );
}
