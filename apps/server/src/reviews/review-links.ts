import { createHmac } from 'node:crypto';
import {
  formatDateTime,
  REVIEW_LINK_DAYS,
  REVIEW_LINK_ERRORS,
  type ReviewLinkError,
} from '@vertragsgenerator/domain';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReviewReviewersTable, ReviewRoundsTable, ReviewsTable } from '../db/schema-reviews.js';
import { HttpError } from '../shared/http-error.js';
import { sha256Hex } from '../shared/sha256.js';

export type Executor = Kysely<Database>;
export type ReviewRow = Selectable<ReviewsTable>;
export type RoundRow = Selectable<ReviewRoundsTable>;
export type ReviewerRow = Selectable<ReviewReviewersTable>;

/** What a reviewer's link opens: their review, round and themselves, and the document's name and key. */
export interface ReviewLinkHolder {
  review: ReviewRow;
  round: RoundRow;
  reviewer: ReviewerRow;
  document: { id: string; file_name: string; doc_key: string; match_id: string };
}

/** 32 bytes of HMAC-SHA-256, base64url, as the signing links. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

const MESSAGES: Record<'de' | 'en', Record<Exclude<ReviewLinkError, 'link_invalid'>, string>> = {
  de: {
    link_expired:
      'Dieser Link ist abgelaufen. Bitte wenden Sie sich an den Absender, um einen neuen zu erhalten.',
    link_withdrawn:
      'Dieser Link wurde vom Absender zurückgezogen. Sie müssen nichts mehr tun; bei Fragen wenden Sie sich bitte an den Absender.',
    round_returned: 'Sie haben diese Runde bereits zurückgesendet. Änderungen sind nicht mehr möglich.',
  },
  en: {
    link_expired: 'This link has expired. Please contact the sender for a new one.',
    link_withdrawn:
      'The sender has withdrawn this link. There is nothing more for you to do; please contact the sender with any questions.',
    round_returned: 'You have already sent this round back. Changes are no longer possible.',
  },
};

export function reviewLinkProblem(code: ReviewLinkError, language: 'de' | 'en' = 'de'): HttpError {
  const message =
    code === 'link_invalid'
      ? 'Dieser Link ist ungültig. Bitte prüfen Sie, ob Sie ihn vollständig aus der E-Mail übernommen haben.'
      : MESSAGES[language][code];
  return new HttpError(REVIEW_LINK_ERRORS[code], code, message);
}

/**
 * The counterparty's personal review links: derived from the signing-link key (every replica derives the
 * same), only their SHA-256 stored, valid REVIEW_LINK_DAYS; a renewal raises the generation and so voids the
 * link before it.
 */
export class ReviewLinks {
  constructor(private readonly deps: { key: Buffer; publicUrl: string; now: () => Date }) {}

  /** The link of a reviewer's next generation, and what to store of it. */
  issue(
    reviewerId: string,
    generation: number,
  ): { url: string; stored: Pick<ReviewerRow, 'token_sha256' | 'link_generation' | 'token_expires_at'> } {
    const token = createHmac('sha256', this.deps.key)
      .update(`review:${reviewerId}:${generation}`)
      .digest('base64url');
    return {
      url: `${this.deps.publicUrl}/vertragspruefung#${token}`,
      stored: {
        token_sha256: sha256Hex(token),
        link_generation: generation,
        token_expires_at: new Date(this.deps.now().getTime() + REVIEW_LINK_DAYS * DAY_MS),
      },
    };
  }

  /** The link a reviewer holds now (for a reminder). */
  current(reviewer: Pick<ReviewerRow, 'id' | 'link_generation'>): string {
    const token = createHmac('sha256', this.deps.key)
      .update(`review:${reviewer.id}:${reviewer.link_generation}`)
      .digest('base64url');
    return `${this.deps.publicUrl}/vertragspruefung#${token}`;
  }

  /**
   * What a link opens, or the German refusal: unknown (404), withdrawn or expired (410). `lock` holds the
   * review's row, so that a return, a comment and a staff decision on one review come one after the other.
   */
  async resolve(token: string, trx: Executor, options: { lock?: boolean } = {}): Promise<ReviewLinkHolder> {
    if (!TOKEN_PATTERN.test(token)) throw reviewLinkProblem('link_invalid');
    const found = await trx
      .selectFrom('review_reviewers as r')
      .innerJoin('review_rounds as o', 'o.id', 'r.round_id')
      .select(['r.id', 'o.review_id'])
      .where('r.token_sha256', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!found) throw reviewLinkProblem('link_invalid');
    let reviewQuery = trx.selectFrom('reviews').selectAll().where('id', '=', found.review_id);
    if (options.lock) reviewQuery = reviewQuery.forUpdate();
    const review = await reviewQuery.executeTakeFirstOrThrow();
    const reviewer = await trx
      .selectFrom('review_reviewers')
      .selectAll()
      .where('id', '=', found.id)
      .executeTakeFirstOrThrow();
    const round = await trx
      .selectFrom('review_rounds')
      .selectAll()
      .where('id', '=', reviewer.round_id)
      .executeTakeFirstOrThrow();
    const document = await trx
      .selectFrom('documents')
      .select(['id', 'file_name', 'doc_key', 'match_id'])
      .where('id', '=', review.document_id)
      .executeTakeFirstOrThrow();
    const language = review.language;
    if (reviewer.withdrawn_at || round.state === 'withdrawn' || review.state === 'withdrawn') {
      throw reviewLinkProblem('link_withdrawn', language);
    }
    if (reviewer.token_expires_at <= this.deps.now()) {
      const problem = reviewLinkProblem('link_expired', language);
      problem.message = `${problem.message} (${language === 'de' ? 'gültig bis' : 'valid until'} ${formatDateTime(reviewer.token_expires_at)})`;
      throw problem;
    }
    return {
      review,
      round,
      reviewer,
      document: { ...document, file_name: document.file_name ?? 'Vertrag.docx' },
    };
  }
}
