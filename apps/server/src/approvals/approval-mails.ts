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
