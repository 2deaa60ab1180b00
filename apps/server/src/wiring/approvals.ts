import { ApprovalEvaluation } from '../approvals/approval-evaluation.js';
import type { ApprovalQueries } from '../approvals/approval-queries.js';
import { ApprovalRequests } from '../approvals/approval-requests.js';
import { ApprovalRulesStore } from '../approvals/approval-rules-store.js';
import { ApprovalSends } from '../approvals/approval-sends.js';
import { BatchApprovals } from '../approvals/batch-approvals.js';
import { DocumentApprovals } from '../approvals/document-approvals.js';
import { ClauseMarksInDatabase } from '../clauses/clause-marks.js';
import { createPdfRenditions } from '../documents/pdf-rendition.js';
import { approvalBatchRoutes } from '../routes/approval-batches.js';
import { approvalRulesRoutes } from '../routes/approval-rules.js';
import { approvalRoutes } from '../routes/approvals.js';
import { documentApprovalRoutes } from '../routes/document-approvals.js';
import { OUTBOX_INTERVAL_MS } from '../shared/background-jobs.js';
import type { ApprovedSender } from '../signature/approval-gate.js';
import type { Countersignature } from '../signature/countersignature.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { TemplateMarksStore } from '../templates/template-marks.js';
import type { AppContext, AreaRunning } from './app-context.js';

/** Freigabe's services: made before the signature area, which asks `requests` as its gate. */
export interface Approvals {
  rules: ApprovalRulesStore;
  evaluation: ApprovalEvaluation;
  requests: ApprovalRequests;
  queries: ApprovalQueries;
  /** Freigabe of a document downloaded rather than signed, and the gate of its download. */
  documentApprovals: DocumentApprovals;
  /** A batch's deals that need Freigabe, asked for and decided as one grouped request. */
  batches: BatchApprovals;
}

export function createApprovals(context: AppContext): Approvals {
  const { deps, audit, outbox } = context;
  const { config, db } = deps;
  const rules = new ApprovalRulesStore(db, audit);
  const evaluation = new ApprovalEvaluation(
    db,
    deps.matches,
    new TemplateMarksStore(db, audit, new ClauseMarksInDatabase(db)),
  );
  const requestDeps = {
    db,
    rules,
    evaluation,
    // Its history entries (asked, approved, declined) are reported like the signature area's.
    envelopes: new EnvelopesRepository(db, context.events),
    outbox,
    publicUrl: config.publicUrl,
    ...(context.events ? { events: context.events } : {}),
  };
  const requests = new ApprovalRequests(requestDeps);
  const documentApprovals = new DocumentApprovals(requestDeps, requests.queries);
  return {
    rules,
    evaluation,
    requests,
    queries: requests.queries,
    documentApprovals,
    batches: new BatchApprovals(requestDeps, requests),
  };
}

/**
 * Freigabe: the rules' and the requests' routes, and the run that sends an approved envelope in the
 * requester's name through `sender` (the signature area's built-in signing).
 */
export async function registerApprovals(
  context: AppContext,
  approvals: Approvals,
  sender: ApprovedSender,
  /** Who countersigns: a send request is checked for it before it is stored with its request. */
  countersignature: Countersignature,
): Promise<AreaRunning> {
  const { app, deps, guards, outbox, documents, audit } = context;
  const { config, db } = deps;
  const sends = new ApprovalSends({ db, sender, outbox, publicUrl: config.publicUrl, log: app.log, audit });
  await app.register(approvalRulesRoutes, { guards, rules: approvals.rules });
  await app.register(approvalRoutes, {
    guards,
    requests: approvals.requests,
    queries: approvals.queries,
    batches: approvals.batches,
    sends,
    envelopes: new EnvelopesRepository(db),
    documents,
    evaluation: approvals.evaluation,
    countersignature,
    db,
    pdf: deps.pdfRenditions ?? createPdfRenditions(),
  });
  await app.register(approvalBatchRoutes, { guards, batches: approvals.batches, sends });
  await app.register(documentApprovalRoutes, {
    guards,
    documents,
    approvals: approvals.documentApprovals,
  });
  // A send a crash left pending is taken up as soon as the server serves again.
  app.addHook('onReady', async () => {
    sends.sendSoon();
  });
  return {
    jobs: [
      { every: OUTBOX_INTERVAL_MS, run: () => sends.sendDue() },
      // The next group in turn hears of a request nobody decided within the escalation's working days.
      { every: OUTBOX_INTERVAL_MS, run: () => approvals.requests.mailEscalations() },
    ],
    stop: [() => sends.stop()],
  };
}
