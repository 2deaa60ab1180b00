import { BatchEnd } from '../batches/batch-end.js';
import { BatchEnvelopes } from '../batches/batch-envelopes.js';
import { BatchRunner } from '../batches/batch-runner.js';
import { Batches } from '../batches/batches.js';
import type { DocumentGenerator } from '../documents/document-generator.js';
import { batchRoutes } from '../routes/batches.js';
import { OUTBOX_INTERVAL_MS } from '../shared/background-jobs.js';
import type { ApprovedSender } from '../signature/approval-gate.js';
import type { Countersignature } from '../signature/countersignature.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import type { TemplateSources } from '../templates/renderer.js';
import type { AppContext, AreaRunning } from './app-context.js';
import type { Approvals } from './approvals.js';

/**
 * Serien: the routes, and the runner that makes a started batch's documents on every replica. A run
 * starts when a batch is started or retried, and every OUTBOX_INTERVAL_MS for deals whose replica
 * stopped holding them (a restart, a SIGKILL): their lease runs out and the next run takes them.
 */
export async function registerBatches(
  context: AppContext,
  made: {
    generator: DocumentGenerator;
    templates: TemplateSources;
    approvals: Approvals;
    /** Sends a deal's envelope in the starter's name, as an approved envelope is sent. */
    sender: ApprovedSender;
    countersignature: Countersignature;
  },
): Promise<AreaRunning> {
  const { app, deps, guards, audit, outbox } = context;
  const approvalRules = async () => (await made.approvals.rules.current()).rules;
  const end = new BatchEnd({
    audit,
    enqueueMail: (mails, trx) => outbox.enqueue(mails, trx),
    ...(context.events ? { events: context.events } : {}),
    approvals: made.approvals.batches,
    publicUrl: deps.config.publicUrl,
  });
  const runner = new BatchRunner({
    db: deps.db,
    matches: deps.matches,
    companyData: deps.companyData,
    generator: made.generator,
    approvalRules,
    end,
    envelopes: new BatchEnvelopes({
      db: deps.db,
      envelopes: new EnvelopesRepository(deps.db, context.events),
      sender: made.sender,
      provider: deps.signatureProvider ? 'docusign' : 'builtin',
      outbox,
      invitationsPerMinute: deps.config.batches.invitationsPerMinute,
    }),
    approvals: made.approvals.batches,
    log: app.log,
  });
  const batches = new Batches({
    db: deps.db,
    matches: deps.matches,
    companyData: deps.companyData,
    approvalRules,
    runner,
    end,
    audit,
    countersignature: made.countersignature,
    renderer: deps.renderer,
    templates: made.templates,
  });
  await app.register(batchRoutes, { guards, batches });
  // A batch a stopped server left running goes on at once, not only at the first timer; on the embedded
  // database (one server) the deals it held wait again at once instead of when their leases run out.
  if (deps.periodicJobs ?? true)
    app.addHook('onReady', async () => {
      if (deps.config.database.kind === 'pglite') await runner.releaseAbandoned();
      runner.soon();
    });
  return { jobs: [{ every: OUTBOX_INTERVAL_MS, run: () => runner.runDue() }], stop: [() => runner.stop()] };
}
