import { type RecipientInput, SIGNER_ANCHORS, type SignerRole } from '@vertragsgenerator/domain';
import { z } from 'zod';
import type { EnvelopeDraft, SignatureProvider } from '../signature-provider.js';
import { createDocusignClient, type DocusignClientOptions, type DocusignConfig } from './docusign-client.js';

/**
 * DocuSign as `SignatureProvider`. The envelope is created as a draft; the sender checks
 * and sends it in DocuSign's sender view, where misplaced fields can still be moved by hand.
 *
 * Two ways per document key: by default our generated DOCX is uploaded and DocuSign places the fields
 * on the invisible anchors of its signature blocks; a key listed in DOCUSIGN_TEMPLATES_FILE uses that
 * DocuSign server template instead, its text fields prefilled from the data our document was
 * rendered from.
 */
export function createDocusignProvider(
  config: DocusignConfig,
  options: DocusignClientOptions = {},
): SignatureProvider {
  const client = createDocusignClient(config, options);
  return {
    kind: 'docusign',
    async createEnvelope(draft) {
      const templateId = config.templates[draft.entry.key];
      const definition = {
        // `sent` only for an approved envelope (Freigabe), which skips the sender view.
        status: draft.send ? 'sent' : 'created',
        emailSubject: draft.subject,
        emailBlurb: draft.message,
        // DocuSign mails as the impersonated integration user; the envelope's reply-to override is
        // how the signers' answers reach the `Absender` they know.
        emailSettings: {
          replyEmailAddressOverride: draft.sender.email,
          replyEmailNameOverride: draft.sender.name,
        },
        ...(templateId ? fromServerTemplate(draft, templateId) : fromOurDocument(draft)),
      };
      // Not idempotent: DocuSign knows no idempotency key, a repeated create is a second envelope.
      const { envelopeId } = await client.post('/envelopes', definition, envelopeSummarySchema, {
        idempotent: false,
      });
      return { externalId: envelopeId };
    },
    async senderViewUrl(envelope, returnUrl) {
      // Repeating is harmless: each call only makes a new one-time link.
      const { url } = await client.post(
        `/envelopes/${encodeURIComponent(envelope.externalId)}/views/sender`,
        { returnUrl },
        viewUrlSchema,
        { idempotent: true },
      );
      return url;
    },
    async completedDocument(externalId) {
      // Every document of the envelope in one PDF, DocuSign's Certificate of Completion at its end.
      return client.getPdf(
        `/envelopes/${encodeURIComponent(externalId)}/documents/combined?certificate=true`,
      );
    },
  };
}

const envelopeSummarySchema = z.object({ envelopeId: z.string().min(1) });
const viewUrlSchema = z.object({ url: z.string().url() });

/**
 * A field on an anchor. The anchors are 1-pt white text on the baseline of their line in the
 * signature block (docs/templates.md); DocuSign puts a field's top left corner on the anchor, so a
 * negative Y offset lifts it onto the line. A missing anchor is an error, not a silently unsigned
 * contract.
 */
const onAnchor = (anchorString: string, anchorYOffset: string) => ({
  anchorString,
  anchorUnits: 'pixels',
  anchorXOffset: '0',
  anchorYOffset,
  anchorIgnoreIfNotPresent: 'false',
});

const SIGNATURE_Y_OFFSET = '-30';
const TEXT_Y_OFFSET = '-10';

const isSigner = (recipient: RecipientInput): recipient is RecipientInput & { role: SignerRole } =>
  recipient.role !== 'CC';

/** Our DOCX as the envelope's document, each signer's fields on their party's anchors. */
function fromOurDocument(draft: EnvelopeDraft) {
  // Recipient ids are unique per envelope across signers and copies; the position in the list is one.
  const numbered = draft.recipients.map((recipient, index) => ({
    recipient,
    recipientId: String(index + 1),
  }));
  return {
    documents: [
      {
        documentId: '1',
        name: draft.document.fileName,
        fileExtension: 'docx',
        documentBase64: draft.document.content.toString('base64'),
      },
    ],
    recipients: {
      signers: numbered.flatMap(({ recipient, recipientId }) => {
        if (!isSigner(recipient)) return [];
        const anchors = SIGNER_ANCHORS[recipient.role];
        return [
          {
            recipientId,
            routingOrder: String(recipient.routingOrder),
            name: recipient.name,
            email: recipient.email,
            // DocuSign lists it in Connect's recipients: how a `sent` report shows the company's countersigner.
            roleName: recipient.role,
            tabs: {
              signHereTabs: [onAnchor(anchors.ankerSignatur, SIGNATURE_Y_OFFSET)],
              dateSignedTabs: [onAnchor(anchors.ankerDatum, TEXT_Y_OFFSET)],
              fullNameTabs: [onAnchor(anchors.ankerName, TEXT_Y_OFFSET)],
            },
          },
        ];
      }),
      carbonCopies: numbered
        .filter(({ recipient }) => recipient.role === 'CC')
        .map(({ recipient, recipientId }) => ({
          recipientId,
          routingOrder: String(recipient.routingOrder),
          name: recipient.name,
          email: recipient.email,
        })),
    },
  };
}

/**
 * A DocuSign server template whose roles are named like ours (`Projektpartner`, `Kunde`, `Kunde2`, `Firma`,
 * `CC`). DocuSign fills a role's text fields by label, so every signer role carries all text values
 * of our data; labels a role has no field for are ignored. Copies (CC) have no fields.
 */
function fromServerTemplate(draft: EnvelopeDraft, templateId: string) {
  const textTabs = Object.entries(draft.data)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([tabLabel, value]) => ({ tabLabel, value }));
  return {
    templateId,
    templateRoles: draft.recipients.map((recipient) => ({
      roleName: recipient.role,
      name: recipient.name,
      email: recipient.email,
      routingOrder: String(recipient.routingOrder),
      ...(isSigner(recipient) ? { tabs: { textTabs } } : {}),
    })),
  };
}
