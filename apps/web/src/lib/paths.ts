/** Routes of the SPA outside the document forms (those are `FORM_ROUTES` in the domain package). */
export const PATHS = {
  root: '/',
  login: '/login',
  authCallback: '/auth/callback',
  start: '/start',
  format: '/format',
  envelope: '/signatur/:envelopeId',
  /** A stored document in the built-in editor. */
  document: '/dokumente/:documentId',
  /** Offene Signaturen: the envelopes to follow up on. */
  signatureOverview: '/signaturen',
  /** PDF prüfen: is a PDF an unchanged sealed document of ours? */
  sealCheck: '/pruefen',
  /** The template library (legal staff and administrators). */
  templates: '/vorlagen',
  /** One template with its versions; `name` is its file name without `.docx`. */
  template: '/vorlagen/:name',
  /** The placeholders a template may use (legal staff and administrators). */
  placeholders: '/vorlagen/platzhalter',
  /** Freigaben: the approval requests of leaders, legal staff and their deputies. */
  approvals: '/freigaben',
  /** A batch's deals that need Freigabe, as one grouped request. */
  approvalBatch: '/freigaben/serien/:batchId',
  /** Team-Operations (administrators only). */
  administration: '/verwaltung',
  /** Auswertung: the figures of the contract work (leaders and legal staff). */
  figures: '/auswertung',
  /** Verträge: the running contracts, with their ends and notice deadlines. */
  contracts: '/vertraege',
  /** One contract record with its chain. */
  contract: '/vertraege/:contractId',
  /** Serien: one document for many deals at once, and the user's batches. */
  batches: '/serien',
  /** One batch: its check, its progress and its documents. */
  batch: '/serien/:batchId',
} as const;

/** The id of the route whose loader answers who is signed in (`useRouteLoaderData(SESSION_ROUTE)`). */
export const SESSION_ROUTE = 'session';

/** The sender's view of one e-signature envelope. */
export function envelopePath(envelopeId: string): string {
  return PATHS.envelope.replace(':envelopeId', encodeURIComponent(envelopeId));
}

/**
 * The page of one template of the library. Without `.docx`: the server answers an address that ends
 * in a file extension as a missing file, not with the SPA, so a reload or a shared link would fail.
 */
export function templatePath(name: string): string {
  return PATHS.template.replace(':name', encodeURIComponent(name.replace(/\.docx$/, '')));
}

/** The template file a template page's address names. */
export function templateOfPath(name: string): string {
  return `${name}.docx`;
}

/** The grouped Freigabe request of one batch. */
export function approvalBatchPath(batchId: string): string {
  return PATHS.approvalBatch.replace(':batchId', encodeURIComponent(batchId));
}

/** The editor page of one stored document. */
export function documentPath(documentId: string): string {
  return PATHS.document.replace(':documentId', encodeURIComponent(documentId));
}

/** The id of the editor page's negotiation panel, which a link may name as the address's fragment. */
export const NEGOTIATION_ANCHOR = 'verhandlung';

/** The editor page of one stored document, scrolled to its negotiation with the counterparty. */
export function documentNegotiationPath(documentId: string): string {
  return `${documentPath(documentId)}#${NEGOTIATION_ANCHOR}`;
}

/** The page of one contract record. */
export function contractPath(contractId: string): string {
  return PATHS.contract.replace(':contractId', encodeURIComponent(contractId));
}

/** The page of one batch (Serie). */
export function batchPath(batchId: string): string {
  return PATHS.batch.replace(':batchId', encodeURIComponent(batchId));
}

/** The address parameters of /serien that preselect a new batch: its document and its deals. */
export const BATCH_PREFILL_PARAMS = { document: 'dokument', matches: 'matches' } as const;

/** /serien with a new batch preselected: the document's key and the deals' match IDs. */
export function newBatchPath(docKey: string, matchIds: readonly string[]): string {
  // The commas stay as they are: the address reads as the list it is (`matches=PL-1,PL-2`).
  const matches = matchIds.map(encodeURIComponent).join(',');
  return `${PATHS.batches}?${BATCH_PREFILL_PARAMS.document}=${encodeURIComponent(docKey)}&${BATCH_PREFILL_PARAMS.matches}=${matches}`;
}
