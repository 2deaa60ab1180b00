import { queryOptions } from '@tanstack/react-query';
import { type EnvelopeView, envelopeViewSchema, type SendEnvelopeRequest } from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';
import { texts } from '@/texts';

/** How often the sender view asks for progress while the signers are at work. */
export const ENVELOPE_POLL_INTERVAL_MS = 10_000;

function envelopeUrl(envelopeId: string, suffix = ''): string {
  return `/backend/signature/envelopes/${encodeURIComponent(envelopeId)}${suffix}`;
}

export function envelopeQueryOptions(envelopeId: string) {
  return queryOptions({
    queryKey: ['envelope', envelopeId],
    queryFn: ({ signal }) => apiJson(envelopeUrl(envelopeId), envelopeViewSchema, { signal }),
    // Only a sent envelope changes without the sender doing anything.
    refetchInterval: (query) => (query.state.data?.status === 'sent' ? ENVELOPE_POLL_INTERVAL_MS : false),
  });
}

export function sendEnvelope(envelopeId: string, request: SendEnvelopeRequest): Promise<EnvelopeView> {
  return apiJson(envelopeUrl(envelopeId, '/send'), envelopeViewSchema, { method: 'POST', body: request });
}

export function voidEnvelope(envelopeId: string, reason: string): Promise<EnvelopeView> {
  return apiJson(envelopeUrl(envelopeId, '/void'), envelopeViewSchema, {
    method: 'POST',
    body: { reason },
  });
}

/** `Link erneuern`: the signer gets a new link by mail, the old one stops working. */
export function renewSigningLink(envelopeId: string, recipientId: string): Promise<EnvelopeView> {
  return apiJson(
    envelopeUrl(envelopeId, `/recipients/${encodeURIComponent(recipientId)}/renew-link`),
    envelopeViewSchema,
    { method: 'POST' },
  );
}

/** The sealed PDF: certificate and signatures with the document inside, as the completion mail carries it. */
export async function downloadSignedPdf(envelopeId: string, documentFileName: string): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelopeId, '/signed-pdf'));
  downloadFile(await response.blob(), texts.envelope.signedPdfFileName(documentFileName));
}

/** `Erinnern`: the signer gets a reminder with the link they hold. */
export function remindSigner(envelopeId: string, recipientId: string): Promise<EnvelopeView> {
  return apiJson(
    envelopeUrl(envelopeId, `/recipients/${encodeURIComponent(recipientId)}/remind`),
    envelopeViewSchema,
    { method: 'POST' },
  );
}

/** The envelope's document for the viewer: the PDF rendition where the server has one. */
export async function loadEnvelopeDocument(
  envelopeId: string,
  pdf: boolean,
  signal: AbortSignal,
): Promise<Blob> {
  const response = await apiFetch(envelopeUrl(envelopeId, pdf ? '/document.pdf' : '/document'), { signal });
  return response.blob();
}

export async function downloadEnvelopeDocument(envelope: EnvelopeView): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelope.id, '/document'));
  downloadFile(await response.blob(), envelope.fileName);
}

export async function downloadEnvelopeCertificate(envelope: EnvelopeView): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelope.id, '/certificate'));
  downloadFile(await response.blob(), texts.envelope.certificateFileName(envelope.fileName));
}
