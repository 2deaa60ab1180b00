import { queryOptions } from '@tanstack/react-query';
import { type EnvelopeView, envelopeViewSchema, type SendEnvelopeRequest } from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';
import { envelopeUrl } from '@/lib/envelopes';

/** How often the sender view asks for progress while the signers are at work. */
export const ENVELOPE_POLL_INTERVAL_MS = 10_000;

export function envelopeQueryOptions(envelopeId: string) {
  return queryOptions({
    queryKey: ['envelope', envelopeId],
    queryFn: ({ signal }) => apiJson(envelopeUrl(envelopeId), envelopeViewSchema, { signal }),
    // Only a sent envelope, or one that waits for its approval, changes without the sender doing anything.
    refetchInterval: (query) =>
      query.state.data?.status === 'sent' || waitsForApproval(query.state.data)
        ? ENVELOPE_POLL_INTERVAL_MS
        : false,
  });
}

function waitsForApproval(envelope: EnvelopeView | undefined): boolean {
  const request = envelope?.approval?.request;
  return request?.status === 'open' || (request?.status === 'approved' && request.send?.state === 'pending');
}

/**
 * Asks for the approval the envelope needs, with what `Senden` would send; the approver's
 * `Freigeben` sends exactly that. The envelope is loaded again afterwards.
 */
export async function requestApproval(envelopeId: string, request: SendEnvelopeRequest): Promise<void> {
  await apiFetch(envelopeUrl(envelopeId, '/approval'), { method: 'POST', body: request });
}

export function sendEnvelope(envelopeId: string, request: SendEnvelopeRequest): Promise<EnvelopeView> {
  return apiJson(envelopeUrl(envelopeId, '/send'), envelopeViewSchema, { method: 'POST', body: request });
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

export async function downloadEnvelopeDocument(envelopeId: string, fileName: string): Promise<void> {
  const response = await apiFetch(envelopeUrl(envelopeId, '/document'));
  downloadFile(await response.blob(), fileName);
}
