import { randomUUID } from 'node:crypto';
import {
  catalogueEntry,
  type DecideSuggestionsRequest,
  type DocumentReview,
  type NextRoundRequest,
  type Review,
  type StaffCommentRequest,
  type StartReviewRequest,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import type { MailOutbox, OutgoingMail } from '../mail/mail-outbox.js';
import { conflict, HttpError, notFound } from '../shared/http-error.js';
import type { EventSink } from '../shared/product-events.js';
import type { Executor, ReviewLinks, ReviewRow, RoundRow } from './review-links.js';
import {
  type RoundForMail,
  reviewInvitationMail,
  reviewWithdrawnMail,
  roundForMail,
} from './review-mails.js';
import { proposedReviewers, reviewDetails, reviewOfDocument } from './review-queries.js';
import { type Decision, decided } from './tracked-changes.js';

/** Who does something on the company's side. */
export interface StaffActor {
  email: string;
  name: string;
}

export interface ReviewsDeps {
  db: Db;
  documents: DocumentsRepository;
  links: ReviewLinks;
  outbox: MailOutbox;
  events: EventSink<Executor>;
}

type RoundInput = { reviewers: { name: string; email: string }[]; message: string; dueDate: string };

/** The contract's language, for the counterparty's page and mails: English keys say so, the rest is German. */
export function languageOfKey(key: string): 'de' | 'en' {
  const params = catalogueEntry(key)?.params;
  return params?.language === 'en' ? 'en' : 'de';
}

/**
 * Negotiation on the company's side: a document sent for review round after round, the counterparty's
 * suggestions decided, comments, links renewed or withdrawn, and the version agreed on. Every change runs
 * in one transaction under the review's row lock (the first round: under the document's), with its mails
 * and its event.
 */
export class Reviews {
  constructor(private readonly deps: ReviewsDeps) {}

  /** The document's negotiation; before there is one, the people its first round would start with. */
  async ofDocument(documentId: string): Promise<DocumentReview> {
    const review = await reviewOfDocument(documentId, this.deps.db);
    return { review, proposedReviewers: review ? [] : await proposedReviewers(documentId, this.deps.db) };
  }

  /** The review's document, for the routes' read check; 404 for an unknown review. */
  async documentOf(reviewId: string): Promise<{ id: string; doc_key: string }> {
    const found = await this.deps.db
      .selectFrom('reviews as r')
      .innerJoin('documents as d', 'd.id', 'r.document_id')
      .select(['d.id', 'd.doc_key'])
      .where('r.id', '=', reviewId)
      .executeTakeFirst();
    if (!found) throw notFound('Diese Verhandlung gibt es nicht.');
    return found;
  }

  /** Sends the document's latest version to the counterparty: the first round, or again after a withdrawal. */
  async start(
    documentId: string,
    input: StartReviewRequest & RoundInput,
    actor: StaffActor,
  ): Promise<Review> {
    const { db } = this.deps;
    const mails: OutgoingMail[] = [];
    const review = await db.transaction().execute(async (trx) => {
      const document = await trx
        .selectFrom('documents')
        .select(['id', 'doc_key', 'status'])
        .where('id', '=', documentId)
        .forNoKeyUpdate()
        .executeTakeFirstOrThrow();
      if (document.status !== 'ready') throw conflict('Dieses Dokument ist noch nicht fertig erstellt.');
      let review = await trx
        .selectFrom('reviews')
        .selectAll()
        .where('document_id', '=', documentId)
        .forUpdate()
        .executeTakeFirst();
      if (review && review.state !== 'withdrawn') {
        throw conflict(
          review.state === 'agreed'
            ? 'Über diesen Vertrag ist die Verhandlung abgeschlossen.'
            : 'Dieser Vertrag ist schon in der Verhandlung. Sende die nächste Runde aus der Verhandlung.',
        );
      }
      review = review
        ? await trx
            .updateTable('reviews')
            .set({ state: 'open' })
            .where('id', '=', review.id)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto('reviews')
            .values({
              document_id: documentId,
              state: 'open',
              language: languageOfKey(document.doc_key),
              created_by: actor.email,
              created_by_name: actor.name,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
      mails.push(...(await this.sendRound(review, input, actor, trx)));
      await this.deps.outbox.enqueue(mails, trx);
      return review;
    });
    return this.afterMails(review, mails);
  }

  /** The next round: the latest version, once the last round came back and every suggestion is decided. */
  async nextRound(
    reviewId: string,
    input: NextRoundRequest & RoundInput,
    actor: StaffActor,
  ): Promise<Review> {
    const mails: OutgoingMail[] = [];
    const review = await this.deps.db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      await this.assertSettled(await this.lastRound(review.id, trx), trx);
      mails.push(...(await this.sendRound(review, input, actor, trx)));
      await this.deps.outbox.enqueue(mails, trx);
      return review;
    });
    return this.afterMails(review, mails);
  }

  /** Accepts or rejects suggestions of the returned round in the latest version, stored as the next version. */
  async decide(reviewId: string, input: DecideSuggestionsRequest, actor: StaffActor): Promise<Review> {
    const { db, documents } = this.deps;
    const review = await db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const round = await this.lastRound(review.id, trx);
      if (round?.state !== 'returned') throw conflict('Es gibt keine zurückgesendete Runde zu entscheiden.');
      const open = await trx
        .selectFrom('review_suggestions')
        .select(['id', 'change_id'])
        .where('round_id', '=', round.id)
        .where('outcome', '=', 'open')
        .execute();
      const wanted = new Map<string, Decision>();
      if (input.all) for (const suggestion of open) wanted.set(suggestion.id, input.all);
      for (const decision of input.decisions ?? []) {
        if (!open.some((suggestion) => suggestion.id === decision.id)) {
          throw conflict('Dieser Vorschlag ist schon entschieden oder gehört nicht zu dieser Runde.');
        }
        wanted.set(decision.id, decision.outcome);
      }
      if (wanted.size === 0)
        throw new HttpError(400, 'invalid_input', 'Bitte wähle mindestens einen Vorschlag.');
      const latest = await documents.latestContent(review.document_id, trx);
      if (!latest || latest.version !== input.baseVersion) {
        throw conflict('Das Dokument wurde inzwischen gespeichert. Bitte lade die Seite neu.');
      }
      const byChange = new Map<string, Decision>();
      for (const suggestion of open) {
        const decision = wanted.get(suggestion.id);
        if (decision) byChange.set(suggestion.change_id, decision);
      }
      const outcome = await documents.addVersionIn(
        trx,
        review.document_id,
        input.baseVersion,
        decided(latest.content, byChange),
        actor.email,
      );
      if ('conflict' in outcome)
        throw conflict('Das Dokument wurde inzwischen gespeichert. Bitte lade die Seite neu.');
      for (const outcomeKind of ['accepted', 'rejected'] as const) {
        const ids = [...wanted].filter(([, decision]) => decision === outcomeKind).map(([id]) => id);
        if (ids.length === 0) continue;
        await trx
          .updateTable('review_suggestions')
          .set({ outcome: outcomeKind, decided_by: actor.name, decided_at: new Date() })
          .where('id', 'in', ids)
          .execute();
      }
      return review;
    });
    return reviewDetails(review, db);
  }

  /** A comment or reply on the company's side: for the counterparty or internal. */
  async comment(reviewId: string, input: Required<StaffCommentRequest>, actor: StaffActor): Promise<Review> {
    const { db } = this.deps;
    const review = await db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const round = await this.lastRound(review.id, trx);
      if (input.parentId) {
        const parent = await trx
          .selectFrom('review_comments')
          .select(['visibility'])
          .where('id', '=', input.parentId)
          .where('review_id', '=', review.id)
          .executeTakeFirst();
        if (!parent) throw new HttpError(400, 'invalid_input', 'Diesen Kommentar gibt es nicht.');
        if (parent.visibility === 'internal' && input.visibility === 'external') {
          throw new HttpError(
            400,
            'invalid_input',
            'Auf einen internen Kommentar kann nur intern geantwortet werden.',
          );
        }
      }
      await trx
        .insertInto('review_comments')
        .values({
          review_id: review.id,
          round: round?.number ?? 1,
          parent_id: input.parentId,
          visibility: input.visibility,
          side: 'company',
          author_name: actor.name,
          author_email: actor.email,
          quote: input.quote,
          text: input.text,
        })
        .execute();
      return review;
    });
    return reviewDetails(review, db);
  }

  /** A new link for a reviewer of the round out now; the old one stops working. */
  async renewLink(reviewId: string, reviewerId: string): Promise<Review> {
    const mails: OutgoingMail[] = [];
    const review = await this.deps.db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const { reviewer, round } = await this.reviewerOfSentRound(review, reviewerId, trx);
      const { url, stored } = this.deps.links.issue(reviewer.id, reviewer.link_generation + 1);
      await trx
        .updateTable('review_reviewers')
        .set({ ...stored, reminded_at: null })
        .where('id', '=', reviewer.id)
        .execute();
      mails.push(
        reviewInvitationMail(
          await this.roundForMail(review, round, trx),
          reviewer,
          url,
          stored.token_expires_at,
        ),
      );
      await this.deps.outbox.enqueue(mails, trx);
      return review;
    });
    return this.afterMails(review, mails);
  }

  /** Withdraws one reviewer's link; they are told. */
  async withdrawReviewer(reviewId: string, reviewerId: string): Promise<Review> {
    const mails: OutgoingMail[] = [];
    const review = await this.deps.db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const { reviewer, round } = await this.reviewerOfSentRound(review, reviewerId, trx);
      await trx
        .updateTable('review_reviewers')
        .set({ withdrawn_at: new Date() })
        .where('id', '=', reviewer.id)
        .execute();
      mails.push(reviewWithdrawnMail(await this.roundForMail(review, round, trx), reviewer));
      await this.deps.outbox.enqueue(mails, trx);
      return review;
    });
    return this.afterMails(review, mails);
  }

  /** Ends the negotiation: a round still out is withdrawn and its reviewers told. */
  async withdraw(reviewId: string): Promise<Review> {
    const mails: OutgoingMail[] = [];
    const review = await this.deps.db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const round = await this.lastRound(review.id, trx);
      if (round?.state === 'sent') {
        await trx
          .updateTable('review_rounds')
          .set({ state: 'withdrawn' })
          .where('id', '=', round.id)
          .execute();
        const reviewers = await trx
          .selectFrom('review_reviewers')
          .selectAll()
          .where('round_id', '=', round.id)
          .where('withdrawn_at', 'is', null)
          .execute();
        const forMail = await this.roundForMail(review, round, trx);
        mails.push(...reviewers.map((reviewer) => reviewWithdrawnMail(forMail, reviewer)));
        await this.deps.outbox.enqueue(mails, trx);
      }
      return trx
        .updateTable('reviews')
        .set({ state: 'withdrawn' })
        .where('id', '=', review.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.afterMails(review, mails);
  }

  /**
   * The latest version is the one agreed on: the last round came back and every suggestion is decided.
   * Answers the document's envelope draft, which the agreed version goes out with.
   */
  async agree(reviewId: string, actor: StaffActor): Promise<{ review: Review; envelopeId: string | null }> {
    const { db, events } = this.deps;
    const agreed = await db.transaction().execute(async (trx) => {
      const review = await this.lockOpen(reviewId, trx);
      const round = await this.lastRound(review.id, trx);
      await this.assertSettled(round, trx);
      const latest = await latestVersion(review.document_id, trx);
      const updated = await trx
        .updateTable('reviews')
        .set({
          state: 'agreed',
          agreed_at: new Date(),
          agreed_by: actor.name,
          agreed_version: latest.version,
        })
        .where('id', '=', review.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await events.record(
        {
          kind: 'review.event',
          type: 'agreed',
          reviewId: review.id,
          documentId: review.document_id,
          round: round?.number ?? 0,
          version: latest.version,
          sha256: latest.sha256,
        },
        trx,
      );
      return updated;
    });
    const review = await reviewDetails(agreed, db);
    return { review, envelopeId: review.envelopeId };
  }

  /** Whether the document may be saved in the editor: not while a round is out with the counterparty. */
  async assertEditable(documentId: string): Promise<void> {
    const out = await this.deps.db
      .selectFrom('review_rounds as o')
      .innerJoin('reviews as r', 'r.id', 'o.review_id')
      .select('o.number')
      .where('r.document_id', '=', documentId)
      .where('o.state', '=', 'sent')
      .executeTakeFirst();
    if (out) {
      throw conflict(
        `Runde ${out.number} liegt bei der Gegenseite zur Prüfung. Bis sie zurückkommt oder zurückgezogen ist, bleibt der Text wie gesendet.`,
      );
    }
  }

  /** A new round of the latest version to the named people: their links, their invitations, `review.sent`. */
  private async sendRound(
    review: ReviewRow,
    input: RoundInput,
    actor: StaffActor,
    trx: Executor,
  ): Promise<OutgoingMail[]> {
    const last = await this.lastRound(review.id, trx);
    const latest = await latestVersion(review.document_id, trx);
    const round = await trx
      .insertInto('review_rounds')
      .values({
        review_id: review.id,
        number: (last?.number ?? 0) + 1,
        state: 'sent',
        message: input.message,
        due_date: input.dueDate,
        sent_by: actor.email,
        sent_by_name: actor.name,
        sent_version: latest.version,
        sent_sha256: latest.sha256,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const forMail = await this.roundForMail(review, round, trx);
    const mails: OutgoingMail[] = [];
    for (const person of uniqueByAddress(input.reviewers)) {
      const id = randomUUID();
      const { url, stored } = this.deps.links.issue(id, 1);
      await trx
        .insertInto('review_reviewers')
        .values({ id, round_id: round.id, name: person.name, email: person.email, ...stored })
        .execute();
      mails.push(reviewInvitationMail(forMail, person, url, stored.token_expires_at));
    }
    await this.deps.events.record(
      {
        kind: 'review.event',
        type: 'sent',
        reviewId: review.id,
        documentId: review.document_id,
        round: round.number,
        version: latest.version,
        sha256: latest.sha256,
      },
      trx,
    );
    return mails;
  }

  /** After the commit: the queued mails go out soon; the answer is the review as it is now. */
  private afterMails(review: ReviewRow, mails: OutgoingMail[]): Promise<Review> {
    if (mails.length > 0) this.deps.outbox.deliverSoon();
    return reviewDetails(review, this.deps.db);
  }

  private async lockOpen(reviewId: string, trx: Executor): Promise<ReviewRow> {
    const review = await trx
      .selectFrom('reviews')
      .selectAll()
      .where('id', '=', reviewId)
      .forUpdate()
      .executeTakeFirst();
    if (!review) throw notFound('Diese Verhandlung gibt es nicht.');
    if (review.state !== 'open') {
      throw conflict(
        review.state === 'agreed'
          ? 'Diese Verhandlung ist abgeschlossen.'
          : 'Diese Verhandlung wurde beendet.',
      );
    }
    return review;
  }

  private lastRound(reviewId: string, trx: Executor): Promise<RoundRow | undefined> {
    return trx
      .selectFrom('review_rounds')
      .selectAll()
      .where('review_id', '=', reviewId)
      .orderBy('number', 'desc')
      .executeTakeFirst();
  }

  /** The last round came back and nothing of it is open. */
  private async assertSettled(round: RoundRow | undefined, trx: Executor): Promise<void> {
    if (round?.state === 'sent') {
      throw conflict(
        `Runde ${round.number} liegt noch bei der Gegenseite. Warte auf ihre Rückmeldung oder ziehe sie zurück.`,
      );
    }
    if (!round) return;
    const open = await trx
      .selectFrom('review_suggestions')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('round_id', '=', round.id)
      .where('outcome', '=', 'open')
      .executeTakeFirstOrThrow();
    if (Number(open.count) > 0) {
      throw conflict(
        `Es sind noch ${open.count} Vorschläge der Gegenseite offen. Bitte nimm jeden an oder lehne ihn ab.`,
      );
    }
  }

  private async reviewerOfSentRound(review: ReviewRow, reviewerId: string, trx: Executor) {
    const round = await this.lastRound(review.id, trx);
    const reviewer =
      round?.state === 'sent'
        ? await trx
            .selectFrom('review_reviewers')
            .selectAll()
            .where('id', '=', reviewerId)
            .where('round_id', '=', round.id)
            .executeTakeFirst()
        : undefined;
    if (!round || !reviewer) throw notFound('Diese Person hat keinen offenen Link in dieser Verhandlung.');
    if (reviewer.withdrawn_at) throw conflict('Der Link dieser Person ist schon zurückgezogen.');
    return { round, reviewer };
  }

  private async roundForMail(review: ReviewRow, round: RoundRow, trx: Executor): Promise<RoundForMail> {
    const document = await trx
      .selectFrom('documents')
      .select('file_name')
      .where('id', '=', review.document_id)
      .executeTakeFirstOrThrow();
    return roundForMail(review, round, document.file_name ?? 'Vertrag.docx');
  }
}

/** One link per address: the same person named twice would get two links to one round. */
function uniqueByAddress<T extends { email: string }>(people: T[]): T[] {
  const seen = new Set<string>();
  return people.filter((person) => {
    const key = person.email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The document's latest version: what a round sends and what is agreed. */
function latestVersion(documentId: string, trx: Executor): Promise<{ version: number; sha256: string }> {
  return trx
    .selectFrom('document_versions')
    .select(['version', 'sha256'])
    .where('document_id', '=', documentId)
    .orderBy('version', 'desc')
    .executeTakeFirstOrThrow();
}
