import { z } from 'zod';
import { signatoryOptionSchema } from './api.js';
import { envelopeApprovalSchema } from './approvals.js';
import { COUNTERSIGNATURE_POSITIONS } from './countersignature.js';
import { EMAIL_PATTERN, type EsignatureDataList } from './documents/data-lists.js';

/**
 * E-signature envelopes (`/backend/signature/…`): the shapes the sender view, the
 * signing page and the server share. An envelope carries one generated document to its signers in
 * routing order; CC recipients get a copy of the completed document.
 */

/**
 * `lapsed`: a draft never sent, or a sent envelope whose every link expired, once a retention rule
 * deleted its document. Nothing is left to send, sign or void: it has ended, as a completed, declined,
 * voided or failed one has, and no status follows it.
 */
export const ENVELOPE_STATUSES = [
  'created',
  'sent',
  'completed',
  'declined',
  'voided',
  'failed',
  'lapsed',
] as const;
export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];

/** Envelopes that can still change; the others are final. */
export const OPEN_ENVELOPE_STATUSES: readonly EnvelopeStatus[] = ['created', 'sent'];

export const ENVELOPE_STATUS_LABELS: Record<EnvelopeStatus, string> = {
  created: 'Entwurf',
  sent: 'Versendet',
  completed: 'Abgeschlossen',
  declined: 'Abgelehnt',
  voided: 'Verworfen',
  failed: 'Fehlgeschlagen',
  lapsed: 'Verfallen',
};

/**
 * The roles of an envelope's recipients: those of the e-signature form's dataList, and `Firma`, the
 * company's signatory who countersigns last (chosen by the sender, never part of the dataList). `CC`
 * receives a copy and does not sign.
 */
export const RECIPIENT_ROLES = ['Projektpartner', 'Kunde', 'Kunde2', 'Firma', 'CC'] as const;
export type RecipientRole = (typeof RECIPIENT_ROLES)[number];
export type SignerRole = Exclude<RecipientRole, 'CC'>;

/** The company's countersignatory: signs after every external signer, in the company's block. */
export const COUNTERSIGNER_ROLE = 'Firma' satisfies RecipientRole;

export const RECIPIENT_ROLE_LABELS: Record<RecipientRole, string> = {
  Projektpartner: 'Projektpartner',
  Kunde: 'Kunde',
  Kunde2: 'Kunde (2. Unterschrift)',
  Firma: 'Gegenzeichnung (Firma)',
  CC: 'Kopie (CC)',
};

/** What the company's block and the certificate say of an envelope sent without a countersignatory. */
export const COMPANY_SEAL_STATEMENT = 'Für die Firma: elektronisch versiegelt';

export const RECIPIENT_STATUSES = ['waiting', 'sent', 'opened', 'signed', 'declined', 'copy'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = {
  waiting: 'Wartet',
  sent: 'Link versendet',
  opened: 'Geöffnet',
  signed: 'Unterschrieben',
  declined: 'Abgelehnt',
  copy: 'Erhält Kopie',
};

export const ENVELOPE_EVENT_TYPES = [
  'created',
  'sent',
  'opened',
  'signed',
  'declined',
  'completed',
  'voided',
  'failed',
  'provider_status',
  'link_renewed',
  'reminded',
  'expired',
  'verified',
  'verification_locked',
  'files_deleted',
  'lapsed',
  'signer_erased',
  'approval_requested',
  'approved',
  'approval_declined',
  'approval_voided',
  'crm_filed',
  'crm_pending',
  'crm_refused',
] as const;
export type EnvelopeEventType = (typeof ENVELOPE_EVENT_TYPES)[number];

export const ENVELOPE_EVENT_LABELS: Record<EnvelopeEventType, string> = {
  created: 'Erstellt',
  sent: 'Versendet',
  opened: 'Geöffnet',
  signed: 'Unterschrieben',
  declined: 'Abgelehnt',
  completed: 'Abgeschlossen',
  voided: 'Verworfen',
  failed: 'Fehlgeschlagen',
  provider_status: 'Status des Signaturanbieters',
  link_renewed: 'Link erneuert',
  reminded: 'Erinnert',
  expired: 'Link abgelaufen',
  verified: 'Identität bestätigt',
  verification_locked: 'Link gesperrt (falsche Codes)',
  files_deleted: 'Dateien gelöscht (Aufbewahrungsregel)',
  lapsed: 'Verfallen (Dokument nach Aufbewahrungsregel gelöscht)',
  signer_erased: 'Personendaten gelöscht (Art. 17 DSGVO)',
  approval_requested: 'Freigabe angefragt',
  approved: 'Freigegeben',
  approval_declined: 'Freigabe abgelehnt',
  approval_voided: 'Freigabe hinfällig',
  crm_filed: 'Im CRM abgelegt',
  crm_pending: 'Noch nicht im CRM abgelegt',
  crm_refused: 'Vom CRM abgelehnt',
};

const name = z
  .string()
  .trim()
  .min(1, 'Bitte gib einen Namen ein.')
  .max(200, 'Der Name ist zu lang (max. 200 Zeichen).');
const email = z
  .string()
  .trim()
  .max(320, 'Die E-Mail-Adresse ist zu lang.')
  .regex(EMAIL_PATTERN, 'Keine gültige E-Mail-Adresse.');

/** One recipient as the sender edits it: signers in `routingOrder` (equal orders sign in parallel). */
export const recipientInputSchema = z.object({
  role: z.enum(RECIPIENT_ROLES),
  name,
  email,
  routingOrder: z.number().int().min(1).max(10),
});
export type RecipientInput = z.infer<typeof recipientInputSchema>;

/** POST /backend/signature/envelopes/:id/send: the sender's final recipients, subject and message. */
export const sendEnvelopeSchema = z
  .object({
    subject: z
      .string()
      .trim()
      .min(1, 'Bitte gib einen Betreff ein.')
      .max(200, 'Der Betreff ist zu lang (max. 200 Zeichen).'),
    message: z.string().trim().max(4000, 'Die Nachricht ist zu lang (max. 4.000 Zeichen).'),
    recipients: z.array(recipientInputSchema).min(1).max(10),
    /**
     * Signers confirm a code mailed to them before the document opens. Unset: as SIGNING_OTP says
     * (yes unless `off`); `false` is taken only where SIGNING_OTP is `optional`.
     */
    signerCode: z.boolean().optional(),
    /**
     * The id of the company's signatory (config/signatories.json) who countersigns after every other
     * signer; unset or null: sent without, where an administrator allows that for the document family.
     */
    countersignatory: z.string().trim().min(1).max(100).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.recipients.some((r) => r.role !== 'CC')) {
      ctx.addIssue({
        code: 'custom',
        path: ['recipients'],
        message: 'Mindestens eine Person muss unterschreiben.',
      });
    }
    const seen = new Set<string>();
    value.recipients.forEach((r, index) => {
      if (r.role === COUNTERSIGNER_ROLE) {
        ctx.addIssue({
          code: 'custom',
          path: ['recipients', index, 'role'],
          message: 'Wer für die Firma gegenzeichnet, wählst du unter „Gegenzeichnung (Firma)“.',
        });
        return;
      }
      if (r.role === 'CC') return;
      if (seen.has(r.role)) {
        ctx.addIssue({
          code: 'custom',
          path: ['recipients', index, 'role'],
          message: `Die Rolle ${RECIPIENT_ROLE_LABELS[r.role]} ist doppelt vergeben.`,
        });
      }
      seen.add(r.role);
    });
  });
export type SendEnvelopeRequest = z.infer<typeof sendEnvelopeSchema>;

/** POST /backend/signature/envelopes/:id/void. */
export const voidEnvelopeSchema = z.object({
  reason: z.string().trim().max(1000, 'Die Begründung ist zu lang (max. 1.000 Zeichen).').default(''),
});

export const envelopeEventSchema = z.object({
  type: z.enum(ENVELOPE_EVENT_TYPES),
  at: z.string(),
  /** E-mail of the user or signer who caused it; empty for the provider. */
  actor: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.string().nullable(),
});
export type EnvelopeEvent = z.infer<typeof envelopeEventSchema>;

export const envelopeRecipientSchema = z.object({
  id: z.string(),
  role: z.enum(RECIPIENT_ROLES),
  name: z.string(),
  email: z.string(),
  routingOrder: z.number().int(),
  status: z.enum(RECIPIENT_STATUSES),
  signedAt: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** Until when the signer's link works; null before they are invited. */
  linkExpiresAt: z.string().nullable(),
});
export type EnvelopeRecipient = z.infer<typeof envelopeRecipientSchema>;

/**
 * Who may countersign an envelope of a document for the company (its company's signatories), whether it
 * may go out without (the administrators' switch for its family), and whether the countersignatory signs
 * before or after the others (their order for its template). The sender view offers it, and a batch's
 * form (`GET /backend/batches/countersignature`).
 */
export const countersignatureChoiceSchema = z.object({
  options: z.array(signatoryOptionSchema),
  withoutAllowed: z.boolean(),
  position: z.enum(COUNTERSIGNATURE_POSITIONS),
});
export type CountersignatureChoice = z.infer<typeof countersignatureChoiceSchema>;

/** GET /backend/signature/envelopes/:id: what the sender view shows. */
export const envelopeViewSchema = z.object({
  id: z.string(),
  provider: z.enum(['builtin', 'docusign']),
  status: z.enum(ENVELOPE_STATUSES),
  matchId: z.string(),
  docKey: z.string(),
  documentId: z.string(),
  /**
   * The document's file name; null once a retention rule deleted the document (the envelope, its
   * recipients and events stay on record, the files are gone).
   */
  fileName: z.string().nullable(),
  documentSha256: z.string(),
  subject: z.string(),
  message: z.string(),
  sender: z.object({ name: z.string(), email: z.string() }),
  createdBy: z.string(),
  createdAt: z.string(),
  recipients: z.array(envelopeRecipientSchema),
  events: z.array(envelopeEventSchema),
  /** A PDF rendition exists (LibreOffice on the server); otherwise the browser shows the DOCX. */
  pdfAvailable: z.boolean(),
  /**
   * Built-in signing: whether its signers confirm a code mailed to them, and whether the sender may
   * still switch that (a draft where SIGNING_OTP is `optional`). Absent with DocuSign.
   */
  signerCode: z.object({ enabled: z.boolean(), changeable: z.boolean() }).optional(),
  /**
   * Built-in signing: the company's signatories the sender may choose to countersign, whether the
   * envelope may go out without one (the administrators' switch for its document family), and whether
   * the countersignatory signs before or after the others (the administrators' order for its template).
   */
  countersignature: countersignatureChoiceSchema.optional(),
  /**
   * Freigabe: whether the envelope needs an approval before it is sent, why, and its latest request.
   * Absent where the server does not evaluate approvals (e.g. a final envelope).
   */
  approval: envelopeApprovalSchema.optional(),
});
export type EnvelopeView = z.infer<typeof envelopeViewSchema>;

/** POST /backend/generateDocusign answers `{ data: <url to open> }`, the sender view. */
export const envelopeUrlSchema = z.object({ data: z.string().url() });

/**
 * The recipients an e-signature dataList names, in signing order: the project partner, or the
 * customer signers one after the other; CC last. Empty names or e-mails are left out.
 */
export function recipientsFromDataList(dataList: EsignatureDataList): RecipientInput[] {
  const recipients: RecipientInput[] = [];
  const add = (role: RecipientRole, person: { name?: string; email?: string }, routingOrder: number) => {
    if (person.name && person.email)
      recipients.push({ role, name: person.name, email: person.email, routingOrder });
  };
  if (dataList.vertragspartner_type === 'pp') {
    add(
      'Projektpartner',
      { name: dataList.Projektpartner_UserName, email: dataList.Projektpartner_Email },
      1,
    );
  } else {
    add('Kunde', { name: dataList.Kunde_UserName, email: dataList.Kunde_Email }, 1);
    add('Kunde2', { name: dataList.Kunde2_UserName, email: dataList.Kunde2_Email }, 2);
  }
  const lastOrder = Math.max(1, ...recipients.map((r) => r.routingOrder));
  add('CC', { name: dataList.CC_UserName, email: dataList.CC_Email }, lastOrder);
  return recipients;
}
