import { randomUUID } from 'node:crypto';
import type { ApprovalRules, ResolvedMatch } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import {
  type MatchSource,
  MatchSourceUnavailableError,
  type MatchUnreadableError,
} from '../matches/match-source.js';
import { LeasedRuns } from '../shared/leased-runs.js';
import { BatchDeal, type BatchDealDeps, type LeasedItem } from './batch-deal.js';

/**
 * Longer than one deal takes: a CRM lookup with its retries and a render within its 20 s deadline. A
 * replica killed while it held a deal gives it up when the lease runs out, and another takes it.
 */
export const BATCH_LEASE_SECONDS = 120;
/** Deals leased together: one CRM request for them where the CRM allows. */
const CHUNK = 20;
/** Deals of a chunk made at the same time: enough to keep the render threads busy. */
const DEALS_AT_ONCE = 4;

export interface BatchRunnerDeps extends BatchDealDeps {
  matches: MatchSource;
  approvalRules: () => Promise<ApprovalRules>;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Works the deals of running batches: one deal at a time per run, leased with one UPDATE … SKIP LOCKED
 * so that any number of replicas share the work and no deal is worked by two at once. A deal is checked
 * again at its turn (the CRM may have changed since the check), then its document made — once, whatever
 * is retried (documents.batch_item_id is unique). A replica that dies holding a deal (SIGKILL) loses its
 * lease after BATCH_LEASE_SECONDS; the deal's next try finds its document if it was stored, or makes it.
 * The run that finishes a batch's last deal finishes the batch, in the same transaction: the starter's
 * mail, the audit entry and `batch.completed`. What happens to one deal is batch-deal.ts's.
 */
export class BatchRunner {
  private readonly runs = new LeasedRuns();
  private readonly log: NonNullable<BatchRunnerDeps['log']>;
  private readonly deal: BatchDeal;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.log = deps.log ?? console;
    this.deal = new BatchDeal(deps);
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
          .select(['id', 'doc_key', 'created_by', 'created_by_name', 'countersignatory', 'send_message'])
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
        if (await this.deal.work(item, deal, batches.get(item.batch_id), rules)) made++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(DEALS_AT_ONCE, items.length) }, worker));
    return made;
  }
}
