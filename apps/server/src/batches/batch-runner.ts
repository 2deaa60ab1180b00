import { randomUUID } from 'node:crypto';
import {
  type ApprovalRules,
  catalogueEntry,
  documentTermsOf,
  documentTitle,
  formatDateTime,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { BatchItemsTable } from '../db/schema-batches.js';
import type { DocumentGenerator } from '../documents/document-generator.js';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import {
  type MatchSource,
  MatchSourceUnavailableError,
  MatchUnreadableError,
} from '../matches/match-source.js';
import { LeasedRuns } from '../shared/leased-runs.js';
import type { EventSink } from '../shared/product-events.js';
import { type CompanyData, templateDataFor } from '../templates/companies.js';
import { RendererUnavailableError, TemplateError } from '../templates/renderer.js';
import { approvalReasonsOf, checkDeal } from './batch-check.js';

type Executor = Kysely<Database>;
type LeasedItem = Selectable<BatchItemsTable>;

/**
 * Longer than one deal takes: a CRM lookup with its retries and a render within its 20 s deadline. A
 * replica killed while it held a deal gives it up when the lease runs out, and another takes it.
 */
export const BATCH_LEASE_SECONDS = 120;
/** Deals leased together: one CRM request for them where the CRM allows. */
const CHUNK = 20;
/** Deals of a chunk made at the same time: enough to keep the render threads busy. */
const DEALS_AT_ONCE = 4;

export interface BatchRunnerDeps {
  db: Db;
  matches: MatchSource;
  companyData: CompanyData;
  generator: DocumentGenerator;
  approvalRules: () => Promise<ApprovalRules>;
  audit: AuditLog;
  /** Queues the starter's mail in the transaction that finishes the batch. */
  enqueueMail: (mails: OutgoingMail[], executor: Executor) => Promise<void>;
  /** `batch.completed` for the webhooks, in the same transaction. */
  events?: EventSink<Executor>;
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Works the deals of running batches: one deal at a time per run, leased with one UPDATE … SKIP LOCKED
 * so that any number of replicas share the work and no deal is worked by two at once. A deal is checked
 * again at its turn (the CRM may have changed since the check), then its document made — once, whatever
 * is retried (documents.batch_item_id is unique). A replica that dies holding a deal (SIGKILL) loses its
 * lease after BATCH_LEASE_SECONDS; the deal's next try finds its document if it was stored, or makes it.
 * The run that finishes a batch's last deal finishes the batch, in the same transaction: the starter's
 * mail, the audit entry and `batch.completed`.
 */
export class BatchRunner {
  private readonly runs = new LeasedRuns();
  private readonly log: NonNullable<BatchRunnerDeps['log']>;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.log = deps.log ?? console;
  }

  /** Starts a run without waiting for it. */
  soon(): void {
    this.runDue().catch((error) => this.log.warn({ err: error }, 'batch run failed'));
  }

  /** Works every deal that is due; returns how many got their document. */
  runDue(): Promise<number> {
    return this.runs.track(this.runAll());
  }

  private async runAll(): Promise<number> {
    let made = 0;
    await this.runs.eachLeased(
      () => this.lease(),
      async (items) => {
        made += await this.workChunk(items);
        return true;
      },
    );
    return made;
  }

  /**
   * On the embedded database only one server works: a deal still held at its start was held by a
   * process that died (SIGKILL, power loss), and waits again now rather than when its lease runs out.
   */
  async releaseAbandoned(): Promise<number> {
    const released = await this.deps.db
      .updateTable('batch_items')
      .set({ status: 'waiting', lease: null, lease_until: null })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(released.numUpdatedRows);
  }

  /** Leases nothing more and waits for the deals under way. */
  stop(): Promise<void> {
    return this.runs.stop();
  }

  /**
   * Leases the next deals of the running batches, oldest batch first: up to CHUNK at once, so that the
   * CRM is read for them in one request where it allows (`findMany`).
   */
  private async lease(): Promise<LeasedItem[] | undefined> {
    const leased = await this.deps.db
      .updateTable('batch_items')
      .set({
        status: 'running',
        attempts: sql`attempts + 1`,
        lease: randomUUID(),
        lease_until: sql<Date>`now() + make_interval(secs => ${BATCH_LEASE_SECONDS})`,
      })
      .where('id', 'in', (qb) =>
        qb
          .selectFrom('batch_items as i')
          .innerJoin('batches as b', 'b.id', 'i.batch_id')
          .select('i.id')
          .where('b.status', '=', 'running')
          .where((eb) =>
            eb.or([
              eb('i.status', '=', 'waiting'),
              eb.and([eb('i.status', '=', 'running'), eb('i.lease_until', '<', sql<Date>`now()`)]),
            ]),
          )
          .orderBy('b.started_at')
          .orderBy('i.position')
          .limit(CHUNK)
          .forUpdate('i')
          .skipLocked(),
      )
      .returningAll()
      .execute();
    return leased.length > 0 ? leased : undefined;
  }

  /** A chunk of deals: read from the CRM together, then made DEALS_AT_ONCE at a time. */
  private async workChunk(items: LeasedItem[]): Promise<number> {
    let looked: Map<string, ResolvedMatch | undefined | MatchUnreadableError> | Error;
    try {
      looked = await this.deps.matches.findMany(items.map((item) => item.match_id));
    } catch (error) {
      if (!(error instanceof MatchSourceUnavailableError)) throw error;
      looked = error;
    }
    // Read once per chunk, not once per deal: the chunk's batches (one, mostly) and the approval rules.
    const batches = new Map(
      (
        await this.deps.db
          .selectFrom('batches')
          .select(['id', 'doc_key', 'created_by'])
          .where('id', 'in', [...new Set(items.map((item) => item.batch_id))])
          .execute()
      ).map((batch) => [batch.id, batch]),
    );
    const rules = await this.deps.approvalRules();
    let made = 0;
    const queue = [...items];
    const worker = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const deal = looked instanceof Error ? looked : looked.get(item.match_id);
        if (await this.work(item, deal, batches.get(item.batch_id), rules)) made++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(DEALS_AT_ONCE, items.length) }, worker));
    return made;
  }

  /** One deal: checked again, its document made (or found made), and its outcome recorded. */
  private async work(
    item: LeasedItem,
    looked: ResolvedMatch | undefined | MatchUnreadableError | Error,
    batch: { doc_key: string; created_by: string } | undefined,
    rules: ApprovalRules,
  ): Promise<boolean> {
    const entry = batch && catalogueEntry(batch.doc_key);
    if (!batch || !entry) return this.fail(item, 'Dieses Dokument gibt es nicht mehr im Katalog.');
    if (looked instanceof MatchUnreadableError) return this.fail(item, looked.userMessage);
    if (looked instanceof MatchSourceUnavailableError)
      return this.fail(
        item,
        `Das CRM war nicht erreichbar (${looked.userMessage ?? looked.message}). Bitte „Fehlgeschlagene erneut versuchen“, wenn es wieder antwortet.`,
      );
    if (looked instanceof Error) throw looked;
    const match = looked;
    if (!match) return this.fail(item, 'Diesen Match gibt es im CRM nicht mehr.');
    const deal = checkDeal(entry, match, item.values, this.deps.companyData);
    if ('reason' in deal) return this.fail(item, `Seit der Prüfung im CRM geändert: ${deal.reason}`);
    const reasons = approvalReasonsOf(entry, match, deal.dataList, rules);
    let documentId: string;
    try {
      const generated = await this.deps.generator.generate({
        entry,
        matchId: match.matchId,
        dataList: deal.dataList,
        data: templateDataFor(entry, match, deal.dataList, this.deps.companyData, new Date()),
        terms: documentTermsOf(entry, match, deal.dataList),
        createdBy: batch.created_by,
        batchItemId: item.id,
      });
      documentId = generated.id;
    } catch (error) {
      if (error instanceof TemplateError)
        return this.fail(item, `Die Vorlage ${error.templateFile} ist fehlerhaft; bitte melde das Problem.`);
      if (error instanceof RendererUnavailableError)
        return this.fail(item, 'Der Dokumentdienst war ausgelastet. Bitte erneut versuchen.');
      throw error;
    }
    return this.deps.db.transaction().execute(async (trx) => {
      await lockBatch(trx, item.batch_id);
      const updated = await trx
        .updateTable('batch_items')
        .set({
          status: reasons.length > 0 ? 'approval' : 'done',
          reason: reasons.length > 0 ? reasons.join(' ') : item.reason,
          document_id: documentId,
          error: null,
          lease: null,
          lease_until: null,
          finished_at: sql<Date>`now()`,
        })
        .where('id', '=', item.id)
        .where('lease', '=', item.lease)
        .executeTakeFirst();
      // Its lease ran out meanwhile and another run took the deal: that run records it.
      if (updated.numUpdatedRows === 0n) return false;
      await this.finishIfDone(trx, item.batch_id);
      return true;
    });
  }

  /** The deal failed with a German reason; the starter can try the failed again. */
  private async fail(item: LeasedItem, reason: string): Promise<false> {
    await this.deps.db.transaction().execute(async (trx) => {
      await lockBatch(trx, item.batch_id);
      const updated = await trx
        .updateTable('batch_items')
        .set({
          status: 'failed',
          error: reason,
          lease: null,
          lease_until: null,
          finished_at: sql<Date>`now()`,
        })
        .where('id', '=', item.id)
        .where('lease', '=', item.lease)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) await this.finishIfDone(trx, item.batch_id);
    });
    return false;
  }

  /**
   * Finishes a running batch none of whose deals waits or runs, in the caller's transaction, which holds
   * the batch's row lock: of two runs that finish its last two deals at once, the second sees the first's
   * deal done and finishes it — exactly once.
   */
  async finishIfDone(trx: Executor, batchId: string): Promise<void> {
    const finished = await trx
      .updateTable('batches')
      .set({
        status: sql`case when exists (select 1 from batch_items where batch_id = ${batchId} and status = 'cancelled') then 'cancelled' else 'finished' end`,
        finished_at: sql<Date>`now()`,
      })
      .where('id', '=', batchId)
      .where('status', '=', 'running')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('batch_items')
              .select('id')
              .where('batch_id', '=', batchId)
              .where('status', 'in', ['waiting', 'running']),
          ),
        ),
      )
      .returning(['id', 'doc_key', 'created_by', 'created_by_name', 'started_at'])
      .executeTakeFirst();
    if (!finished) return;
    const counts = await batchCounts(trx, batchId);
    const entry = catalogueEntry(finished.doc_key);
    const title = entry ? documentTitle(entry) : finished.doc_key;
    const summary = [
      `${counts.done} erstellt`,
      counts.waitingApproval > 0 ? `davon ${counts.waitingApproval} vor Freigabe` : '',
      `${counts.failed} fehlgeschlagen`,
      counts.cancelled > 0 ? `${counts.cancelled} abgebrochen` : '',
      counts.skipped > 0 ? `${counts.skipped} übersprungen` : '',
    ]
      .filter(Boolean)
      .join(', ');
    await this.deps.audit.record(
      { actor: finished.created_by, action: 'batch.finished', subject: `Serie ${title}`, newValue: summary },
      trx,
    );
    await this.deps.enqueueMail(
      [
        {
          to: finished.created_by,
          subject: `Serie fertig: ${title} – ${summary}`,
          text: [
            `Hallo ${finished.created_by_name},`,
            '',
            `deine Serie „${title}“${finished.started_at ? ` vom ${formatDateTime(finished.started_at)} Uhr` : ''} ist fertig: ${summary}.`,
            '',
            `Die Dokumente und die Gründe der fehlgeschlagenen Deals: ${this.deps.publicUrl}/serien/${batchId}`,
          ].join('\n'),
          reference: `batch:${batchId}`,
        },
      ],
      trx,
    );
    await this.deps.events?.record(
      {
        kind: 'batch.completed',
        batchId,
        counts: {
          done: counts.done,
          approval: counts.waitingApproval,
          failed: counts.failed,
          cancelled: counts.cancelled,
          skipped: counts.skipped,
        },
      },
      trx,
    );
  }
}

/** The batch's row lock: the deals' outcomes and the batch's end are decided one after another. */
export async function lockBatch(trx: Executor, batchId: string): Promise<void> {
  await trx.selectFrom('batches').select('id').where('id', '=', batchId).forUpdate().executeTakeFirst();
}

/** How many deals of a batch stand where. */
export async function batchCounts(db: Executor, batchId: string) {
  const rows = await db
    .selectFrom('batch_items')
    .select(['status', 'verdict', sql<string>`count(*)`.as('n')])
    .where('batch_id', '=', batchId)
    .groupBy(['status', 'verdict'])
    .execute();
  const count = (where: (row: (typeof rows)[number]) => boolean) =>
    rows.filter(where).reduce((sum, row) => sum + Number(row.n), 0);
  return {
    ready: count((row) => row.verdict === 'ready'),
    approval: count((row) => row.verdict === 'approval'),
    cannot: count((row) => row.verdict === 'cannot'),
    waiting: count((row) => row.status === 'waiting'),
    running: count((row) => row.status === 'running'),
    done: count((row) => row.status === 'done' || row.status === 'approval'),
    waitingApproval: count((row) => row.status === 'approval'),
    failed: count((row) => row.status === 'failed'),
    cancelled: count((row) => row.status === 'cancelled'),
    skipped: count((row) => row.status === 'skipped'),
  };
}
