/**
 * Facts of the product that other systems may be told of, as the rooms that record them know them.
 * A room that records such a fact hands it to an `EventSink` inside the fact's own transaction, so that
 * what is reported and what happened are stored together or not at all; who is told, and how, is the
 * sink's business (the webhooks in integrations/), not the recording room's.
 */
export type ProductEvent =
  | { kind: 'document.generated'; documentId: string }
  | {
      kind: 'envelope.event';
      envelopeId: string;
      /** The type of the envelope's history entry: `sent`, `signed`, `declined`, `voided`, … */
      type: string;
      recipientId: string | null;
      detail: string | null;
    }
  | { kind: 'envelope.sealed'; envelopeId: string; sha256: string }
  | {
      /** Freigabe of a document downloaded rather than signed: asked for, approved or declined. */
      kind: 'document.approval';
      documentId: string;
      requestId: string;
      type: 'approval_requested' | 'approved' | 'approval_declined';
    }
  | { kind: 'template.published'; name: string; version: number; publishedBy: string }
  | { kind: 'clause.published'; key: string; version: number; publishedBy: string }
  | {
      /** A running contract: recorded, its notice deadline or end coming near, or ended. */
      kind: 'contract.event';
      contractId: string;
      type: 'created' | 'deadline_approaching' | 'ended';
      /** For `deadline_approaching`: which deadline (`notice` or `end`) and its day. */
      deadline?: { kind: 'notice' | 'end'; day: string };
    }
  | {
      /** A batch (Serien) whose every deal was worked: made, failed, or cancelled. */
      kind: 'batch.completed';
      batchId: string;
      counts: { done: number; approval: number; failed: number; cancelled: number; skipped: number };
    }
  | {
      /** Negotiation: a round sent to the counterparty, sent back by them, or the version agreed on. */
      kind: 'review.event';
      reviewId: string;
      documentId: string;
      type: 'sent' | 'returned' | 'agreed';
      round: number;
      /** The version the event is about (sent, returned with suggestions, agreed) and its SHA-256. */
      version: number;
      sha256: string;
    };

/** Takes product events in the caller's transaction (`executor`). */
export interface EventSink<Executor> {
  record(event: ProductEvent, executor: Executor): Promise<void>;
}

/** One sink that tells each of several, in order, in the same transaction. */
export function tellingEach<Executor>(...sinks: (EventSink<Executor> | undefined)[]): EventSink<Executor> {
  const present = sinks.filter((sink): sink is EventSink<Executor> => sink !== undefined);
  return {
    async record(event, executor) {
      for (const sink of present) await sink.record(event, executor);
    },
  };
}
