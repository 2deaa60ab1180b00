import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type ApprovalBatchOutcome,
  type ApprovalListQuery,
  type ApprovalRequest,
  approvalBatchOutcomeSchema,
  approvalBatchSchema,
  approvalComparisonSchema,
  approvalListSchema,
  approvalRequestSchema,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';

/** The start of every key of /freigaben: a decision invalidates it, and the list reloads. */
export const APPROVALS_QUERY_KEY = ['approvals'] as const;

function approvalUrl(id: string, suffix = ''): string {
  return `/backend/approvals/${encodeURIComponent(id)}${suffix}`;
}

function approvalBatchUrl(batchId: string, suffix = ''): string {
  return `/backend/approval-batches/${encodeURIComponent(batchId)}${suffix}`;
}

export function approvalsQueryOptions(query: ApprovalListQuery) {
  const params = new URLSearchParams({ status: query.status, page: String(query.page) });
  if (query.q) params.set('q', query.q);
  return queryOptions({
    queryKey: [...APPROVALS_QUERY_KEY, 'list', query],
    queryFn: ({ signal }) => apiJson(`/backend/approvals?${params}`, approvalListSchema, { signal }),
    // The table keeps the last page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}

/** One request, as a link in the approvers' mail names it (`/freigaben?anfrage=<id>`). */
export function approvalQueryOptions(id: string, shown?: ApprovalRequest) {
  return queryOptions({
    queryKey: [...APPROVALS_QUERY_KEY, 'request', id],
    queryFn: ({ signal }) => apiJson(approvalUrl(id), approvalRequestSchema, { signal }),
    // The list's copy shows at once while the request's own answer is on its way.
    placeholderData: shown,
  });
}

/** A batch's grouped request with every deal's own request. */
export function approvalBatchQueryOptions(batchId: string) {
  return queryOptions({
    queryKey: [...APPROVALS_QUERY_KEY, 'batch', batchId],
    queryFn: ({ signal }) => apiJson(approvalBatchUrl(batchId), approvalBatchSchema, { signal }),
  });
}

/** „Alle freigeben“: every open deal of the batch the caller may decide, with one optional comment. */
export function approveBatch(batchId: string, comment: string): Promise<ApprovalBatchOutcome> {
  return apiJson(approvalBatchUrl(batchId, '/approve'), approvalBatchOutcomeSchema, {
    method: 'POST',
    body: comment.trim() ? { comment: comment.trim() } : {},
  });
}

/** For an edited text: the request's version against the one generated, paragraph by paragraph. */
export function comparisonQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...APPROVALS_QUERY_KEY, 'comparison', id],
    queryFn: ({ signal }) => apiJson(approvalUrl(id, '/comparison'), approvalComparisonSchema, { signal }),
    // The version a request was made for never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The DOCX of the version the request was made for, read through the request: an approver may decide
 * on a document they could not open otherwise.
 */
export async function loadApprovalDocument(id: string, signal: AbortSignal): Promise<Blob> {
  const response = await apiFetch(approvalUrl(id, '/document'), { signal });
  return response.blob();
}

export async function downloadApprovalDocument(
  request: Pick<ApprovalRequest, 'id' | 'fileName'>,
): Promise<void> {
  const response = await apiFetch(approvalUrl(request.id, '/document'));
  downloadFile(await response.blob(), request.fileName);
}

/** Approves; the answer is not needed, the list is loaded again. */
export async function approve(id: string, comment: string): Promise<void> {
  await apiFetch(approvalUrl(id, '/approve'), {
    method: 'POST',
    body: comment.trim() ? { comment: comment.trim() } : {},
  });
}

export async function decline(id: string, reason: string): Promise<void> {
  await apiFetch(approvalUrl(id, '/decline'), { method: 'POST', body: { reason } });
}
