import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import type { GenerationObserver, GenerationResult } from '../documents/document-generator.js';
import { waitingMail } from '../mail/mail-outbox.js';
import type { CrmObserver } from '../matches/crm/crm-client.js';
import {
  COUNTERSIGNATURE_UNCHECKED,
  WITHOUT_COUNTERSIGNATURE,
} from '../signature/docusign/connect-countersignature.js';
import { MEMORY_SETTINGS, type ProcessSettings } from './memory-settings.js';

export interface MetricsSources {
  db: Db;
  /** Documents accepted by the render threads and not yet answered (waiting and rendering). */
  renderQueueDepth: () => number;
  /** Database connections handed out to requests; undefined where there is no pool (the embedded one). */
  databasePoolInUse: () => number | undefined;
}

/** The sign-in route: its answers are what `sign_ins_total` counts. */
const SIGN_IN_ROUTE = '/backend/private/saveUser';

/**
 * The server's metrics in the Prometheus format (docs/operations.md explains each and the alerts to set).
 * A registry of its own per app, so that several apps in one process (tests) do not share counters.
 * Gauges that read the database do so only when scraped.
 */
export class Metrics implements GenerationObserver, CrmObserver {
  private readonly registry = new Registry();
  readonly contentType = this.registry.contentType;

  private readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by route pattern, method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly signIns = new Counter({
    name: 'sign_ins_total',
    help: 'Sign-ins (a session opened for an ID token), by result: succeeded or refused',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  private readonly documents = new Counter({
    name: 'documents_generated_total',
    help: 'Documents generated, by catalogue family (contract, termination, offer, agreement) and result',
    labelNames: ['family', 'result'] as const,
    registers: [this.registry],
  });

  private readonly renderDuration = new Histogram({
    name: 'document_render_seconds',
    help: 'Time to render a document: filled from a known layout, or laid out in a render thread first, waiting included',
    labelNames: ['family'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 20],
    registers: [this.registry],
  });

  private readonly retention = new Counter({
    name: 'retention_deleted_total',
    help: 'Items the deletion run deleted, by retention rule and kind (document, support_report, mail, mail_file, webhook_delivery, crm_writeback, webhook_event)',
    labelNames: ['rule', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly crmSignInRefusals = new Counter({
    name: 'crm_sign_in_refusals_total',
    help: 'Match lookups that failed because the CRM refused even a freshly issued token',
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    collectDefaultMetrics({ register: this.registry });
    memorySettingGauge(this.registry, process);
    const { db } = sources;

    new Gauge({
      name: 'render_queue_depth',
      help: 'Documents of new shapes in the render threads: waiting and being laid out',
      registers: [this.registry],
      collect() {
        this.set(sources.renderQueueDepth());
      },
    });

    new Gauge({
      name: 'database_pool_connections_in_use',
      help: 'PostgreSQL connections held by requests (absent on the embedded database)',
      registers: [this.registry],
      collect() {
        const inUse = sources.databasePoolInUse();
        if (inUse !== undefined) this.set(inUse);
      },
    });

    const backlog = new Gauge({
      name: 'mail_outbox_backlog',
      help: 'Mails stored and not yet delivered',
      registers: [this.registry],
    });
    new Gauge({
      name: 'mail_outbox_oldest_age_seconds',
      help: 'Age of the oldest undelivered mail (0 when none waits)',
      registers: [this.registry],
      async collect() {
        const mail = await waitingMail(db);
        backlog.set(mail.waiting);
        this.set(mail.oldestSeconds);
      },
    });

    new Gauge({
      name: 'envelopes',
      help: 'Signature envelopes by status',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await db
          .selectFrom('envelopes')
          .select(['status', sql<string>`count(*)`.as('count')])
          .groupBy('status')
          .execute();
        this.reset();
        for (const row of rows) this.set({ status: row.status }, Number(row.count));
      },
    });

    new Gauge({
      name: 'sealed_envelopes',
      help: 'Sealed envelope PDFs by PAdES baseline level (B-B without a timestamp authority, B-LTA with one)',
      labelNames: ['level'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await db
          .selectFrom('envelopes')
          .select(['seal_level', sql<string>`count(*)`.as('count')])
          .where('seal_level', 'is not', null)
          .groupBy('seal_level')
          .execute();
        this.reset();
        for (const row of rows) if (row.seal_level) this.set({ level: row.seal_level }, Number(row.count));
      },
    });

    // Each gauge counts in its own collect: prom-client writes a gauge out right after its own collect,
    // so a value set in another gauge's collect would be the previous scrape's.
    new Gauge({
      name: 'seal_renewals_overdue',
      help: 'Sealed PDFs whose archive timestamp was due for renewal more than a day ago',
      registers: [this.registry],
      async collect() {
        const row = await db
          .selectFrom('envelopes')
          .select(sql<string>`count(*)`.as('overdue'))
          .where('seal_renew_at', '<', sql<Date>`now() - interval '1 day'`)
          .executeTakeFirstOrThrow();
        this.set(Number(row.overdue));
      },
    });
    new Gauge({
      name: 'envelopes_waiting_for_seal',
      help: 'Completed envelopes not yet sealed (their completion mail waits); alert when it stays above 0',
      registers: [this.registry],
      async collect() {
        const row = await db
          .selectFrom('envelopes')
          .select(sql<string>`count(*)`.as('waiting'))
          .where('seal_due_at', 'is not', null)
          .where('sealed_pdf', 'is', null)
          .executeTakeFirstOrThrow();
        this.set(Number(row.waiting));
      },
    });

    new Gauge({
      name: 'docusign_envelopes_without_countersignature',
      help: 'DocuSign envelopes reported sent without the company’s countersigner although their document family needs one (check missing), or without recipients in the Connect message (check unchecked), by envelope status',
      labelNames: ['check', 'status'] as const,
      registers: [this.registry],
      async collect() {
        const check = sql<string>`case when envelope_events.detail like ${`${WITHOUT_COUNTERSIGNATURE}%`} then 'missing' else 'unchecked' end`;
        const rows = await db
          .selectFrom('envelope_events')
          .innerJoin('envelopes', 'envelopes.id', 'envelope_events.envelope_id')
          .select([
            check.as('check'),
            'envelopes.status',
            sql<string>`count(distinct envelopes.id)`.as('count'),
          ])
          .where('envelope_events.type', '=', 'provider_status')
          .where((eb) =>
            eb.or([
              eb('envelope_events.detail', 'like', `${WITHOUT_COUNTERSIGNATURE}%`),
              eb('envelope_events.detail', 'like', `${COUNTERSIGNATURE_UNCHECKED}%`),
            ]),
          )
          .groupBy([sql.ref('check'), 'envelopes.status'])
          .execute();
        this.reset();
        for (const row of rows) this.set({ check: row.check, status: row.status }, Number(row.count));
      },
    });

    // One query for the three Freigabe gauges of a scrape (prom-client collects them one after the other).
    let approvalFigures:
      | { at: number; read: Promise<{ open: number; oldest: number; sends: number }> }
      | undefined;
    const readApprovals = () => {
      if (!approvalFigures || Date.now() - approvalFigures.at > 1000) {
        const read = db
          .selectFrom('approval_requests')
          .select([
            sql<string>`count(*) filter (where status = 'open')`.as('open'),
            sql<
              number | null
            >`extract(epoch from now() - min(requested_at) filter (where status = 'open'))`.as('oldest'),
            sql<string>`count(*) filter (where send_state = 'pending')`.as('sends'),
          ])
          .executeTakeFirstOrThrow()
          .then((row) => ({
            open: Number(row.open),
            oldest: Number(row.oldest ?? 0),
            sends: Number(row.sends),
          }));
        approvalFigures = { at: Date.now(), read };
        read.catch(() => {
          approvalFigures = undefined;
        });
      }
      return approvalFigures.read;
    };
    new Gauge({
      name: 'approval_requests_open',
      help: 'Freigabe: approval requests waiting for a decision',
      registers: [this.registry],
      async collect() {
        this.set((await readApprovals()).open);
      },
    });
    new Gauge({
      name: 'approval_requests_oldest_age_seconds',
      help: 'Freigabe: age of the oldest open approval request (0 when none waits)',
      registers: [this.registry],
      async collect() {
        this.set((await readApprovals()).oldest);
      },
    });
    new Gauge({
      name: 'approval_sends_pending',
      help: 'Freigabe: approved envelopes whose send in the requester’s name is not done yet',
      registers: [this.registry],
      async collect() {
        this.set((await readApprovals()).sends);
      },
    });

    new Gauge({
      name: 'webhook_deliveries',
      help: 'Webhook deliveries not delivered: pending (being retried) or failed (given up after 3 days), by the state of their endpoint (active, paused, failing)',
      labelNames: ['status', 'endpoint_state'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await db
          .selectFrom('webhook_deliveries')
          .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
          .select([
            'webhook_deliveries.status',
            sql<string>`case when webhook_endpoints.failing_since is not null then 'failing'
              when webhook_endpoints.active then 'active' else 'paused' end`.as('endpoint_state'),
            sql<string>`count(*)`.as('count'),
          ])
          .where('webhook_deliveries.status', '!=', 'delivered')
          .groupBy(['webhook_deliveries.status', 'endpoint_state'])
          .execute();
        this.reset();
        for (const status of ['pending', 'failed'] as const) {
          for (const state of ['active', 'paused', 'failing']) {
            const row = rows.find((r) => r.status === status && r.endpoint_state === state);
            this.set({ status, endpoint_state: state }, Number(row?.count ?? 0));
          }
        }
      },
    });
    new Gauge({
      name: 'crm_writeback_deliveries',
      help: 'CRM write-backs not delivered: pending (being retried) or failed (refused by the CRM or given up after 3 days; the reason is in the envelope history and the log)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await db
          .selectFrom('webhook_deliveries')
          .select(['status', sql<string>`count(*)`.as('count')])
          .where('target', '=', 'crm')
          .where('status', '!=', 'delivered')
          .groupBy('status')
          .execute();
        this.reset();
        for (const status of ['pending', 'failed'] as const)
          this.set({ status }, Number(rows.find((r) => r.status === status)?.count ?? 0));
      },
    });
  }

  crmSignInRefused(): void {
    this.crmSignInRefusals.inc();
  }

  documentGenerated(family: string, result: GenerationResult, renderSeconds: number): void {
    this.documents.inc({ family, result });
    if (result !== 'unavailable') this.renderDuration.observe({ family }, renderSeconds);
  }

  /** The deletion run reports what each rule deleted. */
  retentionDeleted(rule: string, kind: string, count: number): void {
    this.retention.inc({ rule, kind }, count);
  }

  /**
   * Times every answer of `app` by its route pattern (never the raw URL: IDs would make a series each),
   * and counts the sign-in route's answers as sign-ins. Added before the routes, so that it sees them all.
   */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      this.requestDuration.observe(
        { method: request.method, route, status_code: String(status) },
        reply.elapsedTime / 1000,
      );
      if (route === SIGN_IN_ROUTE) this.signIns.inc({ result: status < 300 ? 'succeeded' : 'refused' });
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * `memory_setting_missing`: 1 for each memory setting of `npm start` and the image that the process runs
 * without, 0 for each it has (memory-settings.ts); the start logs a warning for each missing one.
 */
export function memorySettingGauge(registry: Registry, settings: ProcessSettings): void {
  const gauge = new Gauge({
    name: 'memory_setting_missing',
    help: 'Memory settings of npm start and the image that this process runs without (1) or with (0): MALLOC_MMAP_THRESHOLD_, --max-semi-space-size',
    labelNames: ['setting'] as const,
    registers: [registry],
  });
  for (const memorySetting of MEMORY_SETTINGS) {
    gauge.set({ setting: memorySetting.setting }, memorySetting.isSet(settings) ? 0 : 1);
  }
}
