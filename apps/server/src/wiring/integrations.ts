import { CrmSealedPdfAccess } from '../integrations/crm-writeback/crm-sealed-pdf.js';
import { CrmWritebacks } from '../integrations/crm-writeback/crm-writebacks.js';
import { SealedPdfAccess } from '../integrations/webhooks/sealed-pdf-access.js';
import { WebhookEndpoints } from '../integrations/webhooks/webhook-endpoints.js';
import { type OtherDeliveryTarget, WebhookEventSink } from '../integrations/webhooks/webhook-events.js';
import { WebhookOutbox } from '../integrations/webhooks/webhook-outbox.js';
import { crmWritebackRoutes } from '../routes/crm-writeback.js';
import { webhookRoutes } from '../routes/webhooks.js';
import type { AppContext, AppDependencies, AreaRunning } from './app-context.js';

/** How often due webhook deliveries are looked for; a new event also starts a run at once. */
export const WEBHOOK_INTERVAL_MS = 10_000;
/** After a fact is recorded: its transaction has usually committed by then. */
const AFTER_COMMIT_MS = 200;

/** What the other areas need before the integrations register their routes: the sink of their events. */
export interface Integrations {
  events: WebhookEventSink;
  register(context: AppContext): Promise<AreaRunning>;
}

/**
 * Other systems told of what happens here: webhook endpoints, their outbox and its delivery run. The
 * event sink exists first, since the repositories that record the facts are built with it.
 */
export function createIntegrations(
  deps: AppDependencies,
  /** Told of events too, through the same outbox (the CRM's write-back, wiring/crm-writeback.ts). */
  otherTargets: readonly OtherDeliveryTarget[] = [],
): Integrations {
  const { config, db } = deps;
  let outbox: WebhookOutbox | undefined;
  let pending: NodeJS.Timeout | undefined;
  const deliverAfterCommit = () => {
    if (pending || !outbox) return;
    pending = setTimeout(() => {
      pending = undefined;
      outbox?.deliverSoon();
    }, AFTER_COMMIT_MS);
    pending.unref();
  };
  const events = new WebhookEventSink(config.publicUrl, deliverAfterCommit, otherTargets);
  return {
    events,
    async register(context: AppContext): Promise<AreaRunning> {
      const { app, guards, audit, outbox: mail } = context;
      const webhooks = new WebhookOutbox({
        db,
        allowPrivateTargets: config.webhooks.allowPrivateTargets,
        enqueueMail: (mails, executor) => mail.enqueue(mails, executor),
        mailQueued: () => mail.deliverSoon(),
        configuredAdministrators: config.admin.administrators,
        publicUrl: config.publicUrl,
        log: app.log,
      });
      outbox = webhooks;
      await app.register(webhookRoutes, {
        guards,
        endpoints: new WebhookEndpoints(db, audit, config.webhooks.allowPrivateTargets),
        sealedPdfs: new SealedPdfAccess(db),
        deliverSoon: () => webhooks.deliverSoon(),
      });
      const crm = otherTargets.filter((other) => other.target === 'crm');
      await app.register(crmWritebackRoutes, {
        guards,
        writebacks: new CrmWritebacks(db, audit),
        sealedPdfs: new CrmSealedPdfAccess(db),
        configured: crm.length > 0,
        // The CRM's outbox runs soon after a write-back was recorded: one due again is such.
        deliverSoon: () => {
          for (const other of crm) other.recorded();
        },
      });
      return {
        jobs: [{ every: WEBHOOK_INTERVAL_MS, run: () => webhooks.deliverDue() }],
        stop: [
          () => {
            clearTimeout(pending);
            outbox = undefined;
          },
          () => webhooks.stop(),
        ],
      };
    },
  };
}
