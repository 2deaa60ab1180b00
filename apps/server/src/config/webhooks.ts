import { booleanFromString } from './support.js';

/** Webhooks to other systems (docs/configuration.md#webhooks). */
export const WEBHOOK_ENV = {
  /**
   * Whether an endpoint may be on a loopback, private or link-local address. Off: such an address is
   * refused when an endpoint is registered and again at each delivery, so a webhook cannot be aimed at
   * the server's own network.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFromString.default(false),
};

export interface WebhookConfig {
  allowPrivateTargets: boolean;
}

export function webhookConfig(e: { WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean }): WebhookConfig {
  return { allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS };
}
