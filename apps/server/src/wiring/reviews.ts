import { catalogueEntry } from '@vertragsgenerator/domain';
import { DocumentDifferences } from '../reviews/document-differences.js';
import { ReviewLinkActions } from '../reviews/review-link-actions.js';
import { ReviewLinks } from '../reviews/review-links.js';
import { remindReviewers } from '../reviews/review-reminders.js';
import { Reviews } from '../reviews/reviews.js';
import { reviewLinkRoutes } from '../routes/review-link.js';
import { reviewRoutes } from '../routes/reviews.js';
import { HOUSEKEEPING_INTERVAL_MS } from '../shared/background-jobs.js';
import { loadSigningLinkKey } from '../signature/signing-links.js';
import { codesRepository } from '../signature/verification/signer-codes-repository.js';
import { SignerVerification } from '../signature/verification/signer-verification.js';
import type { TemplateMarksStore } from '../templates/template-marks.js';
import type { AppContext, AreaRunning } from './app-context.js';

/**
 * Negotiation: the staff's routes on a document's negotiation, the counterparty's review page routes,
 * and the hourly reminder before a round's due date. Review links are derived from the signing-link key
 * and confirmed with the signers' code step (SIGNING_OTP), their codes in a table of their own.
 */
export async function registerReviews(
  context: AppContext,
  made: { marks: TemplateMarksStore },
): Promise<AreaRunning & { reviews: Reviews }> {
  const { app, deps, guards, outbox, documents } = context;
  const { db, config } = deps;
  const now = () => new Date();
  const key = await loadSigningLinkKey(db);
  const links = new ReviewLinks({ key, publicUrl: config.publicUrl, now });
  const events = context.events ?? { record: async () => {} };
  const reviews = new Reviews({ db, documents, links, outbox, events });
  const actions = new ReviewLinkActions({
    db,
    documents,
    links,
    verification: new SignerVerification({
      // Review links are ours even where DocuSign collects the signatures: then a code is always asked.
      mode: config.signature.kind === 'builtin' ? config.signature.signerCode : 'required',
      key,
      now,
      codes: codesRepository('reviewer_codes'),
    }),
    outbox,
    events,
    publicUrl: config.publicUrl,
    companyOf: (docKey) => {
      const company = catalogueEntry(docKey)?.params.company;
      return company ? deps.companyData.companies[company].name : '';
    },
    now,
  });
  await app.register(reviewRoutes, {
    guards,
    documents,
    reviews,
    differences: new DocumentDifferences(db, made.marks),
  });
  await app.register(reviewLinkRoutes, { actions, rateLimit: context.signInRateLimit });
  return {
    reviews,
    jobs: [
      { every: HOUSEKEEPING_INTERVAL_MS, run: () => remindReviewers({ db, outbox, links }, new Date()) },
    ],
    stop: [],
  };
}
