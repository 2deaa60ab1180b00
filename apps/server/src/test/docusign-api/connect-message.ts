import { docusignApi } from './docusign-api.js';

/**
 * A DocuSign Connect message in the JSON SIM format (one message per event), as DocuSign posts it
 * with "Include envelope data" on. The message's own frame (event, generatedDateTime, data, …) is not
 * in DocuSign's API description; its `envelopeSummary` is an `envelope` there and is checked against
 * that definition, so the tests cannot post a summary DocuSign would never send.
 */

export interface ConnectMessageOptions {
  /** DocuSign's envelope id. */
  envelopeId: string;
  /** When DocuSign generated the event, ISO 8601 (DocuSign writes seven decimals). */
  generatedDateTime: string;
  /**
   * DocuSign's status of the envelope when the event was generated; by default the status an envelope
   * event names, else `sent`.
   */
  envelopeStatus?: string;
  /** DocuSign's id of the recipient a recipient event is about. */
  recipientId?: string;
  accountId?: string;
}

export interface ConnectMessage {
  event: string;
  apiVersion: string;
  uri: string;
  retryCount: number;
  configurationId: number;
  generatedDateTime: string;
  data: {
    accountId: string;
    userId: string;
    envelopeId: string;
    recipientId?: string;
    envelopeSummary: Record<string, unknown>;
  };
}

/** DocuSign's envelope statuses an event may name (`envelope-corrected` names none). */
const ENVELOPE_STATUSES = new Set(['created', 'sent', 'delivered', 'completed', 'declined', 'voided']);

/** Envelope statuses with a time of their own in the envelope (`sentDateTime`, …). */
const STATUS_TIMES: Record<string, string> = {
  sent: 'sentDateTime',
  delivered: 'deliveredDateTime',
  completed: 'completedDateTime',
  declined: 'declinedDateTime',
  voided: 'voidedDateTime',
};

/** A Connect message for `event` (`envelope-completed`, `recipient-delivered`, …). */
export function connectMessage(event: string, options: ConnectMessageOptions): ConnectMessage {
  const { envelopeId, generatedDateTime, recipientId } = options;
  const accountId = options.accountId ?? 'b41d7e66-0000-4000-8000-account';
  const named = event.startsWith('envelope-') ? event.slice('envelope-'.length) : undefined;
  const status = options.envelopeStatus ?? (named && ENVELOPE_STATUSES.has(named) ? named : 'sent');
  const timeField = STATUS_TIMES[status];
  const envelopeSummary: Record<string, unknown> = {
    envelopeId,
    status,
    emailSubject: 'Rahmenvertrag zur Unterschrift',
    createdDateTime: '2026-11-20T09:00:00.0000000Z',
    statusChangedDateTime: generatedDateTime,
    ...(timeField ? { [timeField]: generatedDateTime } : {}),
    ...(status === 'voided' ? { voidedReason: 'Vertrag wird neu verhandelt' } : {}),
    envelopeUri: `/envelopes/${envelopeId}`,
  };
  const problems = docusignApi().checkDefinition('envelope', envelopeSummary);
  if (problems.length > 0) throw new Error(`not an envelope summary DocuSign sends: ${problems.join('; ')}`);
  return {
    event,
    apiVersion: 'v2.1',
    uri: `/restapi/v2.1/accounts/${accountId}/envelopes/${envelopeId}`,
    retryCount: 0,
    configurationId: 10_418_202,
    generatedDateTime,
    data: {
      accountId,
      userId: '7f2b9c10-0000-4000-8000-impersonated',
      envelopeId,
      ...(recipientId ? { recipientId } : {}),
      envelopeSummary,
    },
  };
}
