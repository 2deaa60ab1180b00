import { queryOptions } from '@tanstack/react-query';
import {
  SIGNING_LINK_ERRORS,
  SIGNING_TOKEN_HEADER,
  type SignEnvelopeRequest,
  type SigningView,
  signingViewSchema,
} from '@vertragsgenerator/domain';
import { ApiRequestError, type ApiRequestOptions, apiFetch, checkedAnswer, parseJsonAnswer } from '@/lib/api';
import { downloadFile } from '@/lib/download';

/**
 * Calls a signer route. A signer has no account: the call is anonymous, and the link token travels
 * only in its header, never in a URL, where proxies and server logs would keep it.
 */
function signingFetch(
  path: string,
  token: string,
  options: Omit<ApiRequestOptions, 'anonymous' | 'headers'> = {},
) {
  return apiFetch(path, { ...options, anonymous: true, headers: { [SIGNING_TOKEN_HEADER]: token } });
}

/** The link is unknown, expired or its envelope closed: nothing on the page can help any more. */
export function isLinkError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && Object.hasOwn(SIGNING_LINK_ERRORS, error.code);
}

export function signingQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['signing', token],
    queryFn: async ({ signal }) =>
      parseJsonAnswer(await signingFetch('/backend/signing', token, { signal }), signingViewSchema),
    // Only the signer's own answer changes what this page shows (and that answer brings the new view);
    // a refetch after signing would only hear that the link is used up.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The view in the answer to a `GET /backend/signing` that the page's entry sent before this code had
 * loaded (app/signing/early-view.ts): it fails as the page's own request would.
 */
export async function signingViewOf(earlyAnswer: Promise<Response>): Promise<SigningView> {
  return parseJsonAnswer(await checkedAnswer(earlyAnswer), signingViewSchema);
}

/** The name the page's reader knows the document by: its version, so that a page never shows an older one. */
export function signingDocumentKey(view: Pick<SigningView, 'documentSha256'>): string {
  return `signing:${view.documentSha256}`;
}

/**
 * The DOCX, which the page shows as text on any screen; the PDF rendition (where LibreOffice is
 * installed) only a browser's PDF plug-in could show, which most phones lack.
 */
export async function loadSigningDocument(token: string, signal: AbortSignal): Promise<Blob> {
  return (await signingFetch('/backend/signing/document', token, { signal })).blob();
}

export async function downloadSigningDocument(token: string, fileName: string): Promise<void> {
  downloadFile(await (await signingFetch('/backend/signing/document', token)).blob(), fileName);
}

export async function signEnvelope(token: string, request: SignEnvelopeRequest): Promise<SigningView> {
  const response = await signingFetch('/backend/signing/sign', token, { method: 'POST', body: request });
  return parseJsonAnswer(response, signingViewSchema);
}

export async function declineEnvelope(token: string, reason: string): Promise<SigningView> {
  const response = await signingFetch('/backend/signing/decline', token, {
    method: 'POST',
    body: { reason },
  });
  return parseJsonAnswer(response, signingViewSchema);
}

/** Asks the server to mail the signer a (new) code; answers the view, never the code. */
export async function requestSigningCode(token: string): Promise<SigningView> {
  const response = await signingFetch('/backend/signing/code', token, { method: 'POST', body: {} });
  return parseJsonAnswer(response, signingViewSchema);
}

/** Confirms the code from the mail; answers the view with the document open for signing. */
export async function verifySigningCode(token: string, code: string): Promise<SigningView> {
  const response = await signingFetch('/backend/signing/verify', token, { method: 'POST', body: { code } });
  return parseJsonAnswer(response, signingViewSchema);
}
