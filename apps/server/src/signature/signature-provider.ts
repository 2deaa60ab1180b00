import type { CatalogueEntry, RecipientInput, TemplateData } from '@vertragsgenerator/domain';

/**
 * The seam between the e-signature flow and whoever collects the signatures: DocuSign in
 * production, our built-in signing as the embedded default. Creating an envelope (create-envelope.ts)
 * records it in our database before calling the provider and records each answer, so nothing exists
 * at the provider without a record of it here.
 */
export interface SignatureProvider {
  readonly kind: 'builtin' | 'docusign';
  /**
   * Creates the envelope as a draft (DocuSign status `created`): nothing is sent yet, the sender
   * reviews it in the sender view. Returns the provider's id of the envelope (ours for built-in).
   */
  createEnvelope(draft: EnvelopeDraft): Promise<{ externalId: string }>;
  /** The URL of the sender view of a created envelope; after sending it leads back to `returnUrl`. */
  senderViewUrl(envelope: { id: string; externalId: string }, returnUrl: string): Promise<string>;
  /**
   * The signed envelope as the provider hands it over once completed, with its certificate (DocuSign's
   * combined document); absent where we seal the PDF ourselves (built-in signing).
   */
  completedDocument?(externalId: string): Promise<Uint8Array>;
}

export interface EnvelopeDraft {
  /** Our id of the envelope (uuid), already stored. */
  id: string;
  entry: CatalogueEntry;
  matchId: string;
  /** The generated document, the single source of truth for the contract text. */
  document: { fileName: string; content: Buffer; sha256: string };
  /** The data the document was rendered from: fills a provider's server template's text tabs. */
  data: TemplateData;
  /** `Absender`: the person the signers see as sender. */
  sender: { name: string; email: string };
  /** Signers in routing order, then CC. */
  recipients: RecipientInput[];
  subject: string;
  message: string;
  /**
   * Create it sent rather than as a draft: an approved envelope (Freigabe) in DocuSign mode goes out at
   * once in the requester's name, without the sender view.
   */
  send?: boolean;
}

/**
 * The provider refused or failed. `retryable` (429, 5xx, timeouts) answers 503 so the browser
 * retries; otherwise 422 with the German `message`, which names the problem for the user.
 */
export class SignatureProviderError extends Error {
  override name = 'SignatureProviderError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The provider's own error text for the log (never shown in full to users). */
    readonly providerDetail?: string,
  ) {
    super(message);
  }
}
