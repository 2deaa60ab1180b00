import {
  COUNTERSIGNER_ROLE,
  REVIEW_MAX_REVIEWERS,
  type Review,
  type ReviewComment,
  type ReviewerInput,
  type ReviewRound,
  type Suggestion,
} from '@vertragsgenerator/domain';
import type { Selectable } from 'kysely';
import type { ReviewCommentsTable, ReviewSuggestionsTable } from '../db/schema-reviews.js';
import type { Executor, ReviewRow } from './review-links.js';

/** Reading a negotiation as staff see it, and the parts the counterparty may see. */

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function suggestionOf(row: Selectable<ReviewSuggestionsTable>): Suggestion {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    context: row.context,
    author: row.author,
    at: row.made_at.toISOString(),
    outcome: row.outcome,
    decidedBy: row.decided_by,
    decidedAt: iso(row.decided_at),
  };
}

export function commentOf(row: Selectable<ReviewCommentsTable>): ReviewComment {
  return {
    id: row.id,
    round: row.round,
    parentId: row.parent_id,
    visibility: row.visibility,
    author: { name: row.author_name, side: row.side },
    quote: row.quote,
    text: row.text,
    createdAt: row.created_at.toISOString(),
  };
}

/** A review's comments; `externalOnly` for the counterparty, who never reads an internal one. */
export async function commentsOf(
  reviewId: string,
  trx: Executor,
  { externalOnly }: { externalOnly: boolean },
): Promise<ReviewComment[]> {
  let query = trx.selectFrom('review_comments').selectAll().where('review_id', '=', reviewId);
  if (externalOnly) query = query.where('visibility', '=', 'external');
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(commentOf);
}

/** The suggestions of some rounds, by round, in document order. */
export async function suggestionsOfRounds(
  roundIds: string[],
  trx: Executor,
): Promise<Map<string, Selectable<ReviewSuggestionsTable>[]>> {
  const byRound = new Map<string, Selectable<ReviewSuggestionsTable>[]>();
  if (roundIds.length === 0) return byRound;
  const rows = await trx
    .selectFrom('review_suggestions')
    .selectAll()
    .where('round_id', 'in', roundIds)
    .orderBy('position')
    .execute();
  for (const row of rows) byRound.set(row.round_id, [...(byRound.get(row.round_id) ?? []), row]);
  return byRound;
}

export async function reviewOfDocument(documentId: string, trx: Executor): Promise<Review | null> {
  const review = await trx
    .selectFrom('reviews')
    .selectAll()
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return review ? reviewDetails(review, trx) : null;
}

export async function reviewDetails(review: ReviewRow, trx: Executor): Promise<Review> {
  const rounds = await trx
    .selectFrom('review_rounds')
    .selectAll()
    .where('review_id', '=', review.id)
    .orderBy('number')
    .execute();
  const roundIds = rounds.map((round) => round.id);
  const reviewers =
    roundIds.length === 0
      ? []
      : await trx
          .selectFrom('review_reviewers')
          .selectAll()
          .where('round_id', 'in', roundIds)
          .orderBy('name')
          .execute();
  const suggestions = await suggestionsOfRounds(roundIds, trx);
  // The draft the agreed version can go out with: ours, which takes the document's latest version when
  // sent. A draft DocuSign already holds carries the version it was created with, so it does not count.
  const envelope = await trx
    .selectFrom('envelopes')
    .select('id')
    .where('document_id', '=', review.document_id)
    .where('status', '=', 'created')
    .where((eb) => eb.or([eb('provider', '=', 'builtin'), eb('external_id', 'is', null)]))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return {
    id: review.id,
    documentId: review.document_id,
    state: review.state,
    language: review.language,
    agreedAt: iso(review.agreed_at),
    agreedBy: review.agreed_by,
    agreedVersion: review.agreed_version,
    envelopeId: envelope?.id ?? null,
    comments: await commentsOf(review.id, trx, { externalOnly: false }),
    rounds: rounds.map(
      (round): ReviewRound => ({
        id: round.id,
        number: round.number,
        state: round.state,
        message: round.message,
        dueDate: round.due_date,
        sentBy: round.sent_by_name,
        sentAt: round.sent_at.toISOString(),
        sentVersion: round.sent_version,
        sentSha256: round.sent_sha256,
        returnedAt: iso(round.returned_at),
        returnedBy: round.returned_by,
        returnedVia: round.returned_via,
        returnedVersion: round.returned_version,
        returnedSha256: round.returned_sha256,
        reviewers: reviewers
          .filter((reviewer) => reviewer.round_id === round.id)
          .map((reviewer) => ({
            id: reviewer.id,
            name: reviewer.name,
            email: reviewer.email,
            linkExpiresAt: reviewer.token_expires_at.toISOString(),
            withdrawnAt: iso(reviewer.withdrawn_at),
            openedAt: iso(reviewer.opened_at),
            remindedAt: iso(reviewer.reminded_at),
          })),
        suggestions: (suggestions.get(round.id) ?? []).map(suggestionOf),
      }),
    ),
  };
}

/**
 * The people a first round starts with: the counterparty's signers on the document's newest envelope
 * draft, in signing order, whom the e-signature form already named — not the company's countersignatory,
 * nor a recipient of a copy (often someone of our own), nor a person whose data was erased.
 */
export async function proposedReviewers(documentId: string, trx: Executor): Promise<ReviewerInput[]> {
  const draft = await trx
    .selectFrom('envelopes')
    .select('id')
    .where('document_id', '=', documentId)
    .where('status', '=', 'created')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!draft) return [];
  return trx
    .selectFrom('envelope_recipients')
    .select(['name', 'email'])
    .where('envelope_id', '=', draft.id)
    .where('role', 'not in', [COUNTERSIGNER_ROLE, 'CC'])
    .where('erased_at', 'is', null)
    .orderBy('routing_order')
    .orderBy('position')
    .limit(REVIEW_MAX_REVIEWERS)
    .execute();
}
