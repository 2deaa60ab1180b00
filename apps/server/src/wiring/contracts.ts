import type { Kysely } from 'kysely';
import { ContractRecorder } from '../contracts/contract-recorder.js';
import { ContractRecords } from '../contracts/contract-records.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { contractFiguresRoutes } from '../routes/contract-figures.js';
import { contractRoutes } from '../routes/contracts.js';
import { OUTBOX_INTERVAL_MS } from '../shared/background-jobs.js';
import { type EventSink, tellingEach } from '../shared/product-events.js';
import type { AppContext, AreaRunning } from './app-context.js';

/**
 * Running contracts. The recorder listens to the product's events beside the webhooks: a completed
 * envelope becomes a record in the transaction that completes it, and `contract.created` goes to the
 * webhooks in that same transaction. `events` is the sink every other area records into.
 */
export function createContracts(db: Db, webhooks: EventSink<Kysely<Database>>) {
  const recorder = new ContractRecorder(db, webhooks);
  return {
    recorder,
    events: tellingEach(webhooks, recorder),
    async register(context: AppContext): Promise<AreaRunning> {
      const { app, guards, audit } = context;
      const records = new ContractRecords(db, audit, webhooks);
      await app.register(contractRoutes, { guards, db, records, now: () => new Date() });
      await app.register(contractFiguresRoutes, { guards, db, now: () => new Date() });
      // The records of envelopes completed before records existed (the first start after the update)
      // and of any whose recording failed, with the other queued work.
      return { jobs: [{ every: OUTBOX_INTERVAL_MS, run: () => recorder.recordMissing() }], stop: [] };
    },
  };
}
