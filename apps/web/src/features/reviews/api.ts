import { queryOptions } from '@tanstack/react-query';
import {
  type DecideSuggestionsRequest,
  documentDifferencesSchema,
  documentReviewSchema,
  type NextRoundRequest,
  type Review,
  reviewAgreedSchema,
  reviewSchema,
  type StaffCommentRequest,
  type StartReviewRequest,
} from '@vertragsgenerator/domain';
import type { z } from 'zod';
import { apiJson } from '@/lib/api';

/** The start of every key of the negotiation: a change of the review reloads all of them. */
export const REVIEWS_QUERY_KEY = ['reviews'] as const;

function documentUrl(documentId: string, suffix: string): string {
  return `/backend/documents/${encodeURIComponent(documentId)}${suffix}`;
}

function reviewUrl(reviewId: string, suffix: string): string {
  return `/backend/reviews/${encodeURIComponent(reviewId)}${suffix}`;
}

/** The document's negotiation; `review` is null until one is started. */
export function documentReviewQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: [...REVIEWS_QUERY_KEY, 'document', documentId],
    queryFn: ({ signal }) => apiJson(documentUrl(documentId, '/review'), documentReviewSchema, { signal }),
  });
}

/**
 * The paragraphs of the newest version that differ from what the template made. Keyed by that version:
 * a decision or a save makes a new one, whose differences are asked afresh.
 */
export function differencesQueryOptions(documentId: string, latestVersion: number | undefined) {
  return queryOptions({
    queryKey: [...REVIEWS_QUERY_KEY, 'differences', documentId, latestVersion ?? 0],
    queryFn: ({ signal }) =>
      apiJson(documentUrl(documentId, '/differences'), documentDifferencesSchema, { signal }),
    // A version's text never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const post = <T>(path: string, schema: z.ZodType<T>, body?: unknown) =>
  apiJson(path, schema, { method: 'POST', ...(body === undefined ? {} : { body }) });

/** The first round: the document's newest version goes to the counterparty's people. */
export function startReview(documentId: string, request: StartReviewRequest): Promise<Review> {
  return post(documentUrl(documentId, '/review'), reviewSchema, request);
}

/** The next round, with the document's newest version (the decisions of the last one applied). */
export function sendNextRound(reviewId: string, request: NextRoundRequest): Promise<Review> {
  return post(reviewUrl(reviewId, '/rounds'), reviewSchema, request);
}

/**
 * Accepts or rejects suggestions; `baseVersion` is the newest version the person sees, and a newer
 * save answers 409.
 */
export function decideSuggestions(reviewId: string, request: DecideSuggestionsRequest): Promise<Review> {
  return post(reviewUrl(reviewId, '/decisions'), reviewSchema, request);
}

export function addComment(reviewId: string, request: StaffCommentRequest): Promise<Review> {
  return post(reviewUrl(reviewId, '/comments'), reviewSchema, request);
}

/** A new link mailed to the reviewer; the old one stops working. */
export function renewReviewerLink(reviewId: string, reviewerId: string): Promise<Review> {
  return post(reviewUrl(reviewId, `/reviewers/${encodeURIComponent(reviewerId)}/renew`), reviewSchema);
}

export function withdrawReviewerLink(reviewId: string, reviewerId: string): Promise<Review> {
  return post(reviewUrl(reviewId, `/reviewers/${encodeURIComponent(reviewerId)}/withdraw`), reviewSchema);
}

/** Ends the negotiation: every link stops working. */
export function withdrawReview(reviewId: string): Promise<Review> {
  return post(reviewUrl(reviewId, '/withdraw'), reviewSchema);
}

/** The newest version becomes the agreed one; `envelopeId` names the draft it goes out for signature with. */
export function agreeReview(reviewId: string): Promise<z.infer<typeof reviewAgreedSchema>> {
  return post(reviewUrl(reviewId, '/agree'), reviewAgreedSchema);
}
