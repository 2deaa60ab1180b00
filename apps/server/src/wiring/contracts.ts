import type { Kysely } from 'kysely';
import { CalendarFeeds } from '../contracts/calendar/calendar-feeds.js';
import { ContractRecorder } from '../contracts/contract-recorder.js';
import { ContractRecords } from '../contracts/contract-records.js';
import { ContractReminders } from '../contracts/reminders/contract-reminders.js';
import { ContractReminderSettings } from '../contracts/reminders/reminder-settings.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { contractCalendarRoutes } from '../routes/contract-calendar.js';
import { contractFiguresRoutes } from '../routes/contract-figures.js';
import { contractReminderRoutes } from '../routes/contract-reminders.js';
import { contractRoutes } from '../routes/contracts.js';
import { HOUSEKEEPING_INTERVAL_MS, OUTBOX_INTERVAL_MS } from '../shared/background-jobs.js';
import { type EventSink, tellingEach } from '../shared/product-events.js';
import type { CompanyData } from '../templates/companies.js';
import type { AppContext, AreaRunning } from './app-context.js';

/**
 * Running contracts. The recorder listens to the product's events beside the webhooks: a completed
 * envelope becomes a record in the transaction that completes it, and `contract.created` goes to the
 * webhooks in that same transaction. `events` is the sink every other area records into.
 */
export function createContracts(
  db: Db,
  webhooks: EventSink<Kysely<Database>>,
  { companies }: Pick<CompanyData, 'companies'>,
) {
  const recording = { companies, events: webhooks };
  const recorder = new ContractRecorder(db, recording);
  return {
    recorder,
    events: tellingEach(webhooks, recorder),
    async register(context: AppContext): Promise<AreaRunning> {
      const { app, guards, audit } = context;
      const records = new ContractRecords(db, audit, recording);
      await app.register(contractRoutes, { guards, db, records, now: () => new Date() });
      await app.register(contractFiguresRoutes, { guards, db, now: () => new Date() });
      // Reminders of notice deadlines and ends, the lead times per company, and the calendar feed.
      const reminderSettings = new ContractReminderSettings(db, audit);
      const reminders = new ContractReminders({
        db,
        outbox: context.outbox,
        settings: reminderSettings,
        events: webhooks,
        publicUrl: context.deps.config.publicUrl,
        log: app.log,
      });
      await app.register(contractReminderRoutes, { guards, settings: reminderSettings });
      await app.register(contractCalendarRoutes, {
        guards,
        feeds: new CalendarFeeds(db, context.deps.config.publicUrl),
        now: () => new Date(),
        rateLimit: context.signInRateLimit,
      });
      // A stop waits for the contract in hand; what it queued is in the outbox.
      app.addHook('onClose', () => reminders.stop());
      return {
        jobs: [
          // The records of envelopes completed before records existed (the first start after the update)
          // and of any whose recording failed, with the other queued work.
          { every: OUTBOX_INTERVAL_MS, run: () => recorder.recordMissing() },
          // Due reminders, as of each run's day in Berlin: hourly, so a new day's are out early.
          { every: HOUSEKEEPING_INTERVAL_MS, run: () => reminders.run(new Date()) },
        ],
        stop: [() => reminders.stop()],
      };
    },
  };
}
