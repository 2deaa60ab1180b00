import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../config/config.js';
import { CrmWritebackOutbox } from '../integrations/crm-writeback/crm-writeback-outbox.js';
import { type CrmWriter, crmWants } from '../integrations/crm-writeback/crm-writer.js';
import { HttpWriteback } from '../integrations/crm-writeback/http-writeback.js';
import type { OtherDeliveryTarget } from '../integrations/webhooks/webhook-events.js';
import { loadCrmMapping } from '../matches/crm/mapping.js';
import type { AppDependencies, AreaRunning } from './app-context.js';

/** How often due write-backs are looked for; a new event also starts a run at once. */
export const CRM_WRITEBACK_INTERVAL_MS = 10_000;
/** After a fact is recorded: its transaction has usually committed by then. */
const AFTER_COMMIT_MS = 200;

export interface CrmWriteback {
  /** The CRM as a target of the webhooks' events (handed to createIntegrations). */
  targets: OtherDeliveryTarget[];
  start(): AreaRunning;
}

/** The writer the configuration names, or none: no CRM, or one told nothing. */
async function createWriter(deps: AppDependencies): Promise<CrmWriter | undefined> {
  const crm = deps.config.crm;
  if (!crm) return undefined;
  if (crm.kind === 'http') {
    if ((await loadCrmMapping(crm.mappingFile)).writeback)
      throw new ConfigError(
        `Invalid CRM mapping ${crm.mappingFile}:\n  writeback: only with CRM_KIND=salesforce; an HTTP CRM is told through CRM_WRITEBACK_URL`,
      );
    return crm.writeback
      ? new HttpWriteback({
          ...crm.writeback,
          auth: crm.auth,
          timeoutMs: crm.timeoutMs,
          publicUrl: deps.config.publicUrl,
        })
      : undefined;
  }
  const mapping = await loadCrmMapping(crm.mappingFile);
  if (!mapping.writeback) return undefined;
  // Loaded only when used: jsforce is large.
  const { SalesforceCrmClient } = await import('../matches/crm/salesforce-crm-client.js');
  const { SalesforceWriteback } = await import('../integrations/crm-writeback/salesforce-writeback.js');
  return new SalesforceWriteback(new SalesforceCrmClient(crm, mapping, crm.mappingFile), {
    object: crm.object,
    idField: crm.idField,
    apiVersion: crm.apiVersion,
    mapping: mapping.writeback,
    mappingSource: crm.mappingFile,
  });
}

/**
 * The CRM told what became of its deals (docs/crm.md "Write-back"): the webhooks' events reach it
 * through their outbox as deliveries to a second kind of target. A mapping that names a field the CRM
 * does not have stops the start; a CRM unreachable at start is checked again before its first write.
 */
export async function createCrmWriteback(
  deps: AppDependencies,
  log: FastifyBaseLogger,
): Promise<CrmWriteback> {
  const writer = await createWriter(deps);
  if (!writer) return { targets: [], start: () => ({ jobs: [], stop: [] }) };
  try {
    await writer.check?.();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    log.warn(
      { err: error },
      'CRM write-back: the CRM could not be asked for its fields; asked again before writing',
    );
  }
  const outbox = new CrmWritebackOutbox({ db: deps.db, writer, log });
  let pending: NodeJS.Timeout | undefined;
  let running = false;
  const target: OtherDeliveryTarget = {
    target: 'crm',
    wants: crmWants,
    recorded: () => {
      if (pending || !running) return;
      pending = setTimeout(() => {
        pending = undefined;
        outbox.deliverSoon();
      }, AFTER_COMMIT_MS);
      pending.unref();
    },
  };
  return {
    targets: [target],
    start() {
      running = true;
      return {
        jobs: [{ every: CRM_WRITEBACK_INTERVAL_MS, run: () => outbox.deliverDue() }],
        stop: [
          () => {
            running = false;
            clearTimeout(pending);
          },
          () => outbox.stop(),
        ],
      };
    },
  };
}
