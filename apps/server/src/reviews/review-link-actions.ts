import type { ReviewerCommentRequest, ReviewerView } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import type { MailOutbox, OutgoingMail } from '../mail/mail-outbox.js';
import { HttpError } from '../shared/http-error.js';
import type { EventSink } from '../shared/product-events.js';
import { maskedAddress } from '../signature/verification/signer-code.js';
import { lockedMessage, type SignerVerification } from '../signature/verification/signer-verification.js';
import { SignerVerificationProblem } from '../signature/verification/verification-problem.js';
import { suggestionsOf } from './returned-changes.js';
import { ReturnedFileProblem, readReturnedWordFile } from './returned-word-file.js';
import { type Executor, type ReviewLinkHolder, type ReviewLinks, reviewLinkProblem } from './review-links.js';
import { reviewCodeMail, reviewReturnedMail, roundForMail } from './review-mails.js';
import { commentsOf, suggestionsOfRounds } from './review-queries.js';
import { trackedChangesOf, withUniqueChangeIds } from './tracked-changes.js';

export interface ReviewLinkActionsDeps {
  db: Db;
  documents: DocumentsRepository;
  links: ReviewLinks;
  /** The code step with the reviewers' own table of codes. */
  verification: SignerVerification;
  outbox: MailOutbox;
  events: EventSink<Executor>;
  /** The staff's address of the product, for the link in the mail that a round came back. */
  publicUrl: string;
  /** The company's name as the counterparty knows it, from the document's key. */
  companyOf: (docKey: string) => string;
  now: () => Date;
}

/** What the counterparty sends back: their changes as a Word file, or nothing but their comments. */
export type ReturnedRound =
  | { source: 'browser' | 'upload'; fileName: string; content: Buffer }
  | { source: 'none' };

/** Codes are asked of every reviewer (SIGNING_OTP decides whether codes are used at all). */
const ALWAYS = { status: 'sent', signer_code: true };

/**
 * What the counterparty does behind their personal link: open it, confirm the code from the mail, read
 * the version sent, comment, and send the round back with their changes. Each runs in one transaction
 * under the review's row lock; nothing they do changes the company's version — their changes become a
 * new version with tracked changes, labelled as theirs, which legal decides.
 */
export class ReviewLinkActions {
  constructor(private readonly deps: ReviewLinkActionsDeps) {}

  async open(token: string): Promise<ReviewerView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const holder = await this.deps.links.resolve(token, trx, { lock: true });
      if (!holder.reviewer.opened_at) {
        await trx
          .updateTable('review_reviewers')
          .set({ opened_at: this.deps.now() })
          .where('id', '=', holder.reviewer.id)
          .execute();
      }
      return this.view(holder, trx);
    });
  }

  async sendCode(token: string): Promise<ReviewerView> {
    const { db, links, verification, outbox } = this.deps;
    const { view, sent } = await db.transaction().execute(async (trx) => {
      const holder = await links.resolve(token, trx, { lock: true });
      const signer = signerOf(holder);
      if (await verification.verified(ALWAYS, signer, trx))
        return { view: await this.view(holder, trx), sent: false };
      const { code, expiresAt } = await verification.issue(signer, trx);
      await outbox.enqueue(
        [
          reviewCodeMail(
            roundForMail(holder.review, holder.round, holder.document.file_name),
            holder.reviewer,
            code,
            expiresAt,
          ),
        ],
        trx,
      );
      return { view: await this.view(holder, trx), sent: true };
    });
    if (sent) outbox.deliverSoon();
    return view;
  }

  async verify(token: string, code: string): Promise<ReviewerView> {
    const { db, links, verification } = this.deps;
    const { view, outcome } = await db.transaction().execute(async (trx) => {
      const holder = await links.resolve(token, trx, { lock: true });
      const outcome = await verification.confirm(ALWAYS, signerOf(holder), code, trx);
      return { view: await this.view(holder, trx), outcome };
    });
    // A wrong code is counted (committed above) before it is refused.
    const english = view.language === 'en';
    switch (outcome.kind) {
      case 'wrong':
        throw new SignerVerificationProblem(
          'code_wrong',
          english
            ? `The code is not correct. ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`
            : `Der Code stimmt nicht. Sie haben noch ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'Versuch' : 'Versuche'}.`,
        );
      case 'expired':
        throw new SignerVerificationProblem(
          'code_expired',
          english
            ? 'This code is no longer valid. Please request a new one.'
            : 'Dieser Code gilt nicht mehr. Bitte fordern Sie einen neuen Code an.',
        );
      case 'locked':
        throw new SignerVerificationProblem('verification_locked', lockedMessage(outcome.until));
      default:
        return view;
    }
  }

  /** The version the reviewer was sent. */
  async document(token: string): Promise<{ fileName: string; content: Uint8Array }> {
    const { db, links, documents } = this.deps;
    const holder = await db.transaction().execute(async (trx) => {
      const holder = await links.resolve(token, trx);
      await this.assertVerified(holder, trx);
      return holder;
    });
    const content = await documents.versionContent(holder.document.id, holder.round.sent_version);
    if (!content) throw reviewLinkProblem('link_invalid');
    return { fileName: holder.document.file_name, content };
  }

  /** A comment of the counterparty, or their reply to one of the company's external comments. */
  async comment(token: string, input: Required<ReviewerCommentRequest>): Promise<ReviewerView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const holder = await this.openRound(token, trx);
      if (input.parentId) {
        const parent = await trx
          .selectFrom('review_comments')
          .select('id')
          .where('id', '=', input.parentId)
          .where('review_id', '=', holder.review.id)
          .where('visibility', '=', 'external')
          .executeTakeFirst();
        if (!parent)
          throw new HttpError(
            400,
            'invalid_input',
            holder.review.language === 'en'
              ? 'This comment does not exist.'
              : 'Diesen Kommentar gibt es nicht.',
          );
      }
      await trx
        .insertInto('review_comments')
        .values({
          review_id: holder.review.id,
          round: holder.round.number,
          parent_id: input.parentId,
          visibility: 'external',
          side: 'counterparty',
          author_name: holder.reviewer.name,
          author_email: holder.reviewer.email,
          quote: input.quote,
          text: input.text,
        })
        .execute();
      return this.view(holder, trx);
    });
  }

  /**
   * Sends the round back. A Word file is checked before anything of it is kept, turned into tracked changes
   * on the version sent (labelled as the reviewer's) and stored as the document's next version with one
   * suggestion per change — all in one transaction, so nothing is half stored.
   */
  async returnRound(token: string, returned: ReturnedRound): Promise<ReviewerView> {
    const { db, documents, outbox, events, now } = this.deps;
    const at = now();
    const { view, mails } = await db.transaction().execute(async (trx) => {
      const holder = await this.openRound(token, trx);
      const { review, round, reviewer } = holder;
      let version: { version: number; sha256: string } | undefined;
      let suggestions = 0;
      if (returned.source !== 'none') {
        const parts = await readReturnedWordFile(returned.fileName, returned.content).catch(
          (error: unknown) => {
            if (!(error instanceof ReturnedFileProblem)) throw error;
            throw new HttpError(
              error.kind === 'tooLarge' ? 413 : 422,
              'file_refused',
              error.messages[review.language],
            );
          },
        );
        const sent = await documents.versionContent(review.document_id, round.sent_version, trx);
        if (!sent) throw reviewLinkProblem('link_invalid');
        const withChanges = withUniqueChangeIds(
          suggestionsOf(sent, parts, { name: reviewer.name, at }).content,
        );
        const changes = trackedChangesOf(withChanges);
        const latest = await documents.latestContent(review.document_id, trx);
        const saved = await documents.addVersionIn(
          trx,
          review.document_id,
          latest?.version ?? round.sent_version,
          withChanges,
          reviewer.email,
        );
        if (!('saved' in saved)) throw new HttpError(409, 'conflict', 'Bitte versuchen Sie es noch einmal.');
        version = saved.saved;
        suggestions = changes.length;
        if (changes.length > 0) {
          await trx
            .insertInto('review_suggestions')
            .values(
              changes.map((change, position) => ({
                round_id: round.id,
                position,
                change_id: change.changeId,
                kind: change.kind,
                text: change.text,
                context: change.context,
                author: change.author || reviewer.name,
                made_at: change.at ?? at,
                outcome: 'open' as const,
              })),
            )
            .execute();
        }
      }
      await trx
        .updateTable('review_rounds')
        .set({
          state: 'returned',
          returned_at: at,
          returned_by: `${reviewer.name} (${reviewer.email})`,
          returned_via: returned.source,
          returned_version: version?.version ?? null,
          returned_sha256: version?.sha256 ?? null,
        })
        .where('id', '=', round.id)
        .execute();
      await events.record(
        {
          kind: 'review.event',
          type: 'returned',
          reviewId: review.id,
          documentId: review.document_id,
          round: round.number,
          version: version?.version ?? round.sent_version,
          sha256: version?.sha256 ?? round.sent_sha256,
        },
        trx,
      );
      const documentUrl = `${this.deps.publicUrl}/dokumente/${review.document_id}`;
      const staff = new Set([round.sent_by, review.created_by]);
      const mails: OutgoingMail[] = [...staff].map((to) =>
        reviewReturnedMail(
          roundForMail(holder.review, holder.round, holder.document.file_name),
          to,
          reviewer,
          suggestions,
          documentUrl,
        ),
      );
      await outbox.enqueue(mails, trx);
      const updated = await this.deps.links.resolve(token, trx);
      return { view: await this.view(updated, trx), mails };
    });
    if (mails.length > 0) outbox.deliverSoon();
    return view;
  }

  /** The link's round, verified and still open for the reviewer's changes. */
  private async openRound(token: string, trx: Executor): Promise<ReviewLinkHolder> {
    const holder = await this.deps.links.resolve(token, trx, { lock: true });
    await this.assertVerified(holder, trx);
    if (holder.round.state !== 'sent' || holder.review.state !== 'open') {
      throw reviewLinkProblem('round_returned', holder.review.language);
    }
    return holder;
  }

  private async assertVerified(holder: ReviewLinkHolder, trx: Executor): Promise<void> {
    if (await this.deps.verification.verified(ALWAYS, signerOf(holder), trx)) return;
    throw new SignerVerificationProblem(
      'verification_required',
      holder.review.language === 'en'
        ? 'Please first confirm the code we sent you by e-mail.'
        : 'Bitte bestätigen Sie zuerst den Code, den wir Ihnen per E-Mail geschickt haben.',
    );
  }

  /** What the reviewer sees; until the code is confirmed, their address masked and the message withheld. */
  private async view(holder: ReviewLinkHolder, trx: Executor): Promise<ReviewerView> {
    const { review, round, reviewer, document } = holder;
    const verification = await this.deps.verification.state(ALWAYS, signerOf(holder), trx);
    const verified = !verification.required || verification.verified;
    const earlierRounds = verified
      ? await trx
          .selectFrom('review_rounds')
          .select(['id', 'number'])
          .where('review_id', '=', review.id)
          .where('number', '<', round.number)
          .orderBy('number')
          .execute()
      : [];
    const suggestions = await suggestionsOfRounds(
      earlierRounds.map((earlier) => earlier.id),
      trx,
    );
    return {
      fileName: document.file_name,
      documentSha256: round.sent_sha256,
      language: review.language,
      company: this.deps.companyOf(document.doc_key),
      sender: { name: round.sent_by_name, email: round.sent_by },
      reviewer: { name: reviewer.name, email: verified ? reviewer.email : maskedAddress(reviewer.email) },
      round: round.number,
      message: verified ? round.message : '',
      dueDate: round.due_date,
      returnedAt: round.returned_at?.toISOString() ?? null,
      verification,
      earlier: earlierRounds.map((earlier) => ({
        round: earlier.number,
        suggestions: (suggestions.get(earlier.id) ?? []).map(({ kind, text, context, outcome }) => ({
          kind,
          text,
          context,
          outcome,
        })),
      })),
      comments: verified ? await commentsOf(review.id, trx, { externalOnly: true }) : [],
    };
  }
}

/** The code step knows link holders as signers: an id, an address, the link it went out for. */
function signerOf(holder: ReviewLinkHolder) {
  return { id: holder.reviewer.id, email: holder.reviewer.email, token_sha256: holder.reviewer.token_sha256 };
}
