import { DeletionRun } from '../privacy/deletion-run.js';
import { ErasureFollowUp } from '../privacy/erasure-requests.js';
import { LegalHolds } from '../privacy/legal-holds.js';
import { PersonData } from '../privacy/person-data.js';
import { PersonErasure } from '../privacy/person-erase.js';
import { PersonExports } from '../privacy/person-export.js';
import { PersonSearch } from '../privacy/person-search.js';
import { recordReads } from '../privacy/read-recording.js';
import { ReadsLog } from '../privacy/reads-log.js';
import { RetentionRules } from '../privacy/retention-rules.js';
import { documentRecordRoutes } from '../routes/document-records.js';
import { legalHoldRoutes } from '../routes/legal-holds.js';
import { personDataRoutes } from '../routes/person-data.js';
import { retentionRoutes } from '../routes/retention.js';
import { HOUSEKEEPING_INTERVAL_MS } from '../shared/background-jobs.js';
import type { AppContext, AreaRunning } from './app-context.js';

/** Long enough for a start to settle; short enough that a server restarted daily still deletes. */
const FIRST_RUN_AFTER_MS = 60_000;

/**
 * Data protection: the reads log of stored files (its hooks come before the routes they watch), the
 * retention rules and legal holds, and the deletion run shortly after the start and
 * then daily (the hourly job starts it once the last run is a day old; the lease lets one replica run).
 */
export async function registerPrivacy(context: AppContext): Promise<AreaRunning> {
  const { app, deps, guards, audit, metrics } = context;
  const { config, db } = deps;
  const rules = new RetentionRules(db, audit);
  const holds = new LegalHolds(db, audit, deps.matches);
  const search = new PersonSearch(db, config.mail.directory);
  const erasure = new PersonErasure({
    db,
    audit,
    search,
    rules,
    mailDirectory: config.mail.directory,
    configuredAdministrators: config.admin.administrators,
    externalCrm: config.crm !== undefined,
  });
  const run = new DeletionRun({
    db,
    audit,
    rules,
    mailDirectory: config.mail.directory,
    observer: metrics,
    followUp: new ErasureFollowUp(db, erasure),
    log: app.log,
  });
  await app.register(retentionRoutes, { guards, rules, holds, run });
  await app.register(legalHoldRoutes, { guards, holds });
  const reads = new ReadsLog(db, app.log);
  recordReads(app, reads);
  await app.register(documentRecordRoutes, { guards, db, reads });
  const person = new PersonData(
    audit,
    search,
    new PersonExports(db, audit, search, config.mail.directory),
    erasure,
  );
  await app.register(personDataRoutes, { guards, person });

  let firstRun: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    firstRun = setTimeout(() => {
      run.run().catch((error) => app.log.warn({ err: error }, 'retention run failed'));
    }, FIRST_RUN_AFTER_MS);
    firstRun.unref();
  });
  return {
    jobs: [{ every: HOUSEKEEPING_INTERVAL_MS, run: () => run.runIfDue() }],
    stop: [() => clearTimeout(firstRun), () => run.stop(), () => reads.flush()],
  };
}
