import { catalogueEntry, documentTitle } from '@vertragsgenerator/domain';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import { isMailbox } from '../signature/mail-parties.js';

/**
 * What the approval mails need of a request. An API client's request names it as `requested_by`
 * (`api:<name>`), which is no mailbox: the mails to the requester are not written, and the approvers'
 * mail has no reply-to (signature/mail-parties.ts says what a mailbox is).
 */
export interface RequestForMail {
  id: string;
  match_id: string;
  file_name: string;
  requested_by: string;
  requested_by_name: string;
  /** For a document downloaded rather than signed: the editor's page is linked instead of an envelope. */
  document_id?: string;
}

const title = (request: RequestForMail) => request.file_name.replace(/\.docx$/i, '');

/** To each approver: a request waits on /freigaben. */
export function approvalRequestedMail(
  request: RequestForMail,
  approver: string,
  reasonTexts: string[],
  publicUrl: string,
): OutgoingMail {
  return {
    to: approver,
    ...(isMailbox(request.requested_by) ? { replyTo: request.requested_by } : {}),
    subject: `Freigabe erbeten: ${title(request)}`,
    text: [
      'Hallo,',
      '',
      `${request.requested_by_name} (${request.requested_by}) bittet um eine Freigabe für „${title(request)}“ (${request.match_id}).`,
      '',
      'Gründe:',
      ...reasonTexts.map((text) => `- ${text}`),
      '',
      `Zur Freigabe: ${publicUrl}/freigaben?anfrage=${request.id}`,
    ].join('\n'),
    reference: `approval:${request.id}`,
  };
}

/** To the next group in turn once the escalation is due: nobody decided yet. */
export function approvalEscalatedMail(
  request: RequestForMail,
  approver: string,
  reasonTexts: string[],
  publicUrl: string,
): OutgoingMail {
  const mail = approvalRequestedMail(request, approver, reasonTexts, publicUrl);
  return {
    ...mail,
    subject: `Freigabe wartet noch: ${title(request)}`,
    text: mail.text.replace(
      'bittet um eine Freigabe',
      'wartet seit der Anfrage auf eine Freigabe, die noch niemand erteilt hat. Du kannst jetzt ebenfalls entscheiden. Es geht um eine Freigabe',
    ),
  };
}

/** To the requester: approved (and sent in their name), or declined with the reason; none for an API client. */
export function approvalDecidedMail(
  request: RequestForMail,
  decision: { approved: boolean; by: string; byName: string; comment: string | null },
  publicUrl: string,
  envelopeId: string | null,
): OutgoingMail[] {
  if (!isMailbox(request.requested_by)) return [];
  const released = envelopeId
    ? 'Der Umschlag wird in deinem Namen versendet.'
    : 'Du kannst das Dokument jetzt herunterladen.';
  const again = envelopeId
    ? 'Der Umschlag bleibt ein Entwurf: du kannst ihn ändern und noch einmal zur Freigabe senden.'
    : 'Du kannst das Dokument ändern und noch einmal zur Freigabe senden.';
  const lines = decision.approved
    ? [
        `${decision.byName} hat „${title(request)}“ (${request.match_id}) freigegeben. ${released}`,
        ...(decision.comment ? ['', `Kommentar: ${decision.comment}`] : []),
      ]
    : [
        `${decision.byName} hat die Freigabe für „${title(request)}“ (${request.match_id}) abgelehnt.`,
        '',
        `Grund: ${decision.comment ?? ''}`,
        '',
        again,
      ];
  const link = envelopeId
    ? `Zum Umschlag: ${publicUrl}/signatur/${envelopeId}`
    : request.document_id
      ? `Zum Dokument: ${publicUrl}/dokumente/${request.document_id}`
      : null;
  return [
    {
      to: request.requested_by,
      ...(isMailbox(decision.by) ? { replyTo: decision.by } : {}),
      subject: `${decision.approved ? 'Freigegeben' : 'Freigabe abgelehnt'}: ${title(request)}`,
      text: [`Hallo ${request.requested_by_name},`, '', ...lines, ...(link ? ['', link] : [])].join('\n'),
      reference: `approval:${request.id}`,
    },
  ];
}

/** To the requester: the approved send could not be made; none for an API client. */
export function approvalSendFailedMail(
  request: RequestForMail,
  problem: string,
  publicUrl: string,
  envelopeId: string | null,
): OutgoingMail[] {
  if (!isMailbox(request.requested_by)) return [];
  return [
    {
      to: request.requested_by,
      subject: `Versand nach Freigabe nicht möglich: ${title(request)}`,
      text: [
        `Hallo ${request.requested_by_name},`,
        '',
        `„${title(request)}“ (${request.match_id}) wurde freigegeben, konnte aber nicht versendet werden:`,
        problem,
        ...(envelopeId ? ['', `Zum Umschlag: ${publicUrl}/signatur/${envelopeId}`] : []),
      ].join('\n'),
      reference: `approval:${request.id}`,
    },
  ];
}

/** What the mails of a batch's grouped request need. */
export interface BatchForMail {
  batchId: string;
  /** The batch's document, e.g. „Einzelauftrag (Kunde, WM)“. */
  title: string;
  requested_by: string;
  requested_by_name: string;
}

/** To each approver, once per batch run: its deals that need an approval wait as one request. */
export function approvalBatchRequestedMail(
  batch: BatchForMail & { deals: number },
  approver: string,
  publicUrl: string,
): OutgoingMail {
  return {
    to: approver,
    ...(isMailbox(batch.requested_by) ? { replyTo: batch.requested_by } : {}),
    subject: `Freigabe erbeten: Serie ${batch.title} (${batch.deals} Deals)`,
    text: [
      'Hallo,',
      '',
      `${batch.requested_by_name} (${batch.requested_by}) bittet um die Freigabe von ${batch.deals} Deals der Serie „${batch.title}“.`,
      'Du kannst alle auf einmal freigeben oder jeden Deal einzeln entscheiden.',
      '',
      `Zur Freigabe: ${publicUrl}/freigaben/serien/${batch.batchId}`,
    ].join('\n'),
    reference: `batch:${batch.batchId}`,
  };
}

/** To the starter, once for `Alle freigeben`: how many deals were approved (and are being sent). */
export function approvalBatchDecidedMail(
  batch: BatchForMail,
  decision: { approved: number; by: string; byName: string; comment: string | null },
  publicUrl: string,
): OutgoingMail[] {
  if (!isMailbox(batch.requested_by)) return [];
  return [
    {
      to: batch.requested_by,
      ...(isMailbox(decision.by) ? { replyTo: decision.by } : {}),
      subject: `Freigegeben: ${decision.approved} Deals der Serie ${batch.title}`,
      text: [
        `Hallo ${batch.requested_by_name},`,
        '',
        `${decision.byName} hat ${decision.approved} Deals der Serie „${batch.title}“ freigegeben. Umschläge werden in deinem Namen versendet, Dokumente kannst du herunterladen.`,
        ...(decision.comment ? ['', `Kommentar: ${decision.comment}`] : []),
        '',
        `Zur Serie: ${publicUrl}/serien/${batch.batchId}`,
      ].join('\n'),
      reference: `batch:${batch.batchId}`,
    },
  ];
}

/** To the next group in turn, once per batch: its deals waited their working days undecided. */
export function approvalBatchEscalatedMail(
  batch: Omit<BatchForMail, 'title'> & { doc_key: string; deals: number },
  approver: string,
  publicUrl: string,
): OutgoingMail {
  const entry = catalogueEntry(batch.doc_key);
  const mail = approvalBatchRequestedMail(
    { ...batch, title: entry ? documentTitle(entry) : batch.doc_key },
    approver,
    publicUrl,
  );
  return {
    ...mail,
    subject: mail.subject.replace('Freigabe erbeten', 'Freigabe wartet noch'),
    text: mail.text.replace(
      'bittet um die Freigabe',
      'wartet seit der Anfrage auf eine Freigabe, die noch niemand erteilt hat. Du kannst jetzt ebenfalls entscheiden. Es geht um die Freigabe',
    ),
  };
}
