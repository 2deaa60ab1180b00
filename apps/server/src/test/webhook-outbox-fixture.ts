import type { WebhookEventType } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { WebhookEndpoints } from '../integrations/webhooks/webhook-endpoints.js';
import { WebhookOutbox } from '../integrations/webhooks/webhook-outbox.js';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import type { WebhookReceiver } from './webhook-receiver.js';

export const WEBHOOK_ADMIN = 'ops@demo.local';

/**
 * The webhooks' outbox as the tests run it: receivers on loopback allowed unless said otherwise, the
 * mails to administrators kept in `mails`, `chefin@demo.local` an administrator by configuration.
 */
export function testWebhookOutbox(
  db: Db,
  mails: OutgoingMail[],
  options: { allowPrivateTargets?: boolean; deadlineMs?: number } = {},
): WebhookOutbox {
  return new WebhookOutbox({
    db,
    allowPrivateTargets: options.allowPrivateTargets ?? true,
    ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
    enqueueMail: async (queued) => {
      mails.push(...queued);
    },
    configuredAdministrators: new Set(['chefin@demo.local']),
    publicUrl: 'https://vertrag.example',
    log: { warn: () => {} },
  });
}

/** Registers the receiver for `events` and hands it the secret; the endpoint's id. */
export async function registerReceiver(
  endpoints: WebhookEndpoints,
  receiver: WebhookReceiver,
  events: WebhookEventType[],
): Promise<string> {
  const created = await endpoints.register(WEBHOOK_ADMIN, { url: receiver.url, description: '', events });
  receiver.useSecret(created.secret);
  return created.id;
}
