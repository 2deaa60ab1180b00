/** The calls on an envelope that the sender view, the signature overview and a match's history share. */

import { type EnvelopeView, envelopeViewSchema } from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';
import { texts } from '@/texts';

export function envelopeUrl(envelopeId: string, suffix = ''): string {
  return `/backend/signature/envelopes/${encodeURIComponent(envelopeId)}${suffix}`;
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

/** `Erinnern`: the signer gets a reminder with the link they hold. */
export function remindSigner(envelopeId: string, recipientId: string): Promise<EnvelopeView> {
  return apiJson(
    envelopeUrl(envelopeId, `/recipients/${encodeURIComponent(recipientId)}/remind`),
    envelopeViewSchema,
    { method: 'POST' },
  );
}

/** The sealed PDF: certificate and signatures with the document inside, as the completion mail carries it. */
export async function downloadSignedPdf(envelopeId: string, documentFileName: string): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelopeId, '/signed-pdf'));
  downloadFile(await response.blob(), texts.envelope.signedPdfFileName(documentFileName));
}

/** The completion certificate of a finished envelope, named after the document it was made for. */
export async function downloadCertificate(envelopeId: string, documentFileName: string): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelopeId, '/certificate'));
  downloadFile(await response.blob(), texts.envelope.certificateFileName(documentFileName));
}
