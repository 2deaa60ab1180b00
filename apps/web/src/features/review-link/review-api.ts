import { queryOptions } from '@tanstack/react-query';
import {
  DOCX_MIME_TYPE,
  REVIEW_LINK_ERRORS,
  REVIEW_RETURN_SOURCE_HEADER,
  REVIEW_TOKEN_HEADER,
  type ReviewerCommentRequest,
  type ReviewerView,
  reviewerViewSchema,
} from '@vertragsgenerator/domain';
import { ApiRequestError, type ApiRequestOptions, apiFetch, checkedAnswer, parseJsonAnswer } from '@/lib/api';
import { downloadFile } from '@/lib/download';

/**
 * Calls a reviewer route. The counterparty has no account: the call is anonymous, and the link token
 * travels only in its header, never in a URL, where proxies and server logs would keep it.
 */
function reviewFetch(path: string, token: string, options: Omit<ApiRequestOptions, 'anonymous'> = {}) {
  return apiFetch(path, {
    ...options,
    anonymous: true,
    headers: { ...options.headers, [REVIEW_TOKEN_HEADER]: token },
  });
}

/**
 * The link is unknown, expired or withdrawn: nothing on the page can help any more. (`round_returned`
 * is not among them: the page then shows the round as sent back.)
 */
export function isLinkError(error: unknown): error is ApiRequestError {
  return (
    error instanceof ApiRequestError &&
    Object.hasOwn(REVIEW_LINK_ERRORS, error.code) &&
    error.code !== 'round_returned'
  );
}

/** The round was sent back already (from another tab, or by a colleague with their own link). */
export function isRoundReturned(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && error.code === 'round_returned';
}

export function reviewQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['review-link', token],
    queryFn: async ({ signal }) =>
      parseJsonAnswer(await reviewFetch('/backend/review', token, { signal }), reviewerViewSchema),
    // Only the reviewer's own calls change what this page shows, and each answers the new view.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The view in the answer to a `GET /backend/review` that the page's entry sent before this code had
 * loaded (app/review/early-view.ts): it fails as the page's own request would.
 */
export async function reviewViewOf(earlyAnswer: Promise<Response>): Promise<ReviewerView> {
  return parseJsonAnswer(await checkedAnswer(earlyAnswer), reviewerViewSchema);
}

/** The name the page's reader knows the document by: the version the round sent, by its SHA-256. */
export function reviewDocumentKey(token: string, view: Pick<ReviewerView, 'documentSha256'>): string {
  return `review:${token}:${view.documentSha256}`;
}

/**
 * The DOCX of the version sent, as a file of its own: the first view and superdoc read it, and a file
 * (unlike a response's blob) carries its name and type whichever way it is handed on.
 */
export async function loadReviewDocument(
  token: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<File> {
  const response = await reviewFetch('/backend/review/document', token, signal ? { signal } : {});
  return new File([await response.arrayBuffer()], fileName, { type: DOCX_MIME_TYPE });
}

export async function downloadReviewDocument(token: string, fileName: string): Promise<void> {
  downloadFile(await loadReviewDocument(token, fileName), fileName);
}

/** Asks the server to mail the reviewer a (new) code; answers the view, never the code. */
export async function requestReviewCode(token: string): Promise<ReviewerView> {
  const response = await reviewFetch('/backend/review/code', token, { method: 'POST', body: {} });
  return parseJsonAnswer(response, reviewerViewSchema);
}

/** Confirms the code from the mail; answers the view with the contract open for review. */
export async function verifyReviewCode(token: string, code: string): Promise<ReviewerView> {
  const response = await reviewFetch('/backend/review/verify', token, { method: 'POST', body: { code } });
  return parseJsonAnswer(response, reviewerViewSchema);
}

export async function postReviewComment(
  token: string,
  request: ReviewerCommentRequest,
): Promise<ReviewerView> {
  const response = await reviewFetch('/backend/review/comments', token, { method: 'POST', body: request });
  return parseJsonAnswer(response, reviewerViewSchema);
}

/**
 * What goes back with the round: the DOCX exported from the page's editor (`browser`), the reviewer's
 * own Word file (`upload`), or nothing but the comments already posted (`none`).
 */
export type ReturnedChanges =
  | { source: 'none' }
  | { source: 'browser'; docx: Blob }
  | { source: 'upload'; file: File };

export async function returnReview(token: string, changes: ReturnedChanges): Promise<ReviewerView> {
  const headers: Record<string, string> = { [REVIEW_RETURN_SOURCE_HEADER]: changes.source };
  let body: Blob | undefined;
  if (changes.source === 'browser') {
    // As DOCX whatever type the export gave it: the server reads the type from the header.
    body = new Blob([changes.docx], { type: DOCX_MIME_TYPE });
  } else if (changes.source === 'upload') {
    // A browser types a .docx by its extension, or not at all: the server checks the bytes either way.
    body = new Blob([changes.file], { type: DOCX_MIME_TYPE });
    headers['x-file-name'] = encodeURIComponent(changes.file.name);
  }
  const response = await reviewFetch('/backend/review/return', token, {
    method: 'POST',
    headers,
    ...(body && { body }),
  });
  return parseJsonAnswer(response, reviewerViewSchema);
}
