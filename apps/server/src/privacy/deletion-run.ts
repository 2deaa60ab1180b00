import { randomUUID } from 'node:crypto';
import { deletionRunLabel, type RetentionRuleName, type RetentionRun } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { LeasedRuns } from '../shared/leased-runs.js';
import { deleteSignedPdfBatch, SIGNED_PDF_KIND } from './contract-pdf-deletion.js';
import { type DeliveryRule, deleteDeliveryBatch, deleteOrphanedEventBatch } from './delivery-deletion.js';
import { type DocumentStep, deleteDocumentBatch, RETENTION_ACTOR } from './document-deletion.js';
import { deleteMailFolderBatch } from './mail-folder.js';
import { deleteExpiredExports } from './person-export.js';
import { deleteSentMailBatch, deleteSupportReportBatch } from './record-deletion.js';
import { RetentionLease } from './retention-lease.js';
import type { RetentionRules } from './retention-rules.js';

/** What the run reports to the metrics: how many items each rule deleted. */
export interface DeletionObserver {
  retentionDeleted(rule: RetentionRuleName, kind: string, count: number): void;
}

export interface DeletionRunDeps {
  db: Db;
  audit: AuditLog;
  rules: RetentionRules;
  /** DATA_DIR/mail, where the embedded mailer writes; absent: no mail folder to clear. */
  mailDirectory?: string;
  observer?: DeletionObserver;
  /** What earlier erases left to a duty that has ended since (`ErasureFollowUp`); returns how many went. */
  followUp?: { run(): Promise<number> };
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Documents per transaction at most; fewer while batches take long (a busy machine). */
  batchSize?: number;
  /** Told how long each batch took, in milliseconds, and how many items it deleted (the bench). */
  onBatch?: (milliseconds: number, deleted: number) => void;
}

/** A day between runs; the hourly look only starts one when the last finished run is that old. */
export const RUN_EVERY_MS = 24 * 60 * 60_000;
/** What a failed run shows: what it means for the administrator, not the cause, which is logged. */
export const RUN_FAILED = 'Abgebrochen; der nächste Lauf setzt fort.';
/** A batch slower than this halves the next one: well below the second no batch may hold the database. */
const SLOW_BATCH_MS = 250;
const DOCUMENT_STEPS: DocumentStep[] = ['failed_generations', 'envelopes', 'generated_documents'];
const DELIVERY_RULES: DeliveryRule[] = ['webhook_deliveries', 'crm_writebacks'];

/**
 * The deletion run: every rule in turn, batch after batch, each batch a small transaction with its
 * audit entry, until nothing is due. One replica runs at a time (the lease); a run that dies leaves its
 * lease to expire, and the next one finds the rest still due and resumes.
 */
export class DeletionRun {
  private readonly runs = new LeasedRuns();
  private readonly lease: RetentionLease;
  private readonly now: () => Date;
  private readonly batchSize: number;
  /** The batch size now: halved after a slow batch, grown back after quick ones, so none holds the database long. */
  private size: number;

  constructor(private readonly deps: DeletionRunDeps) {
    this.lease = new RetentionLease(deps.db, `${process.pid}-${randomUUID()}`);
    this.now = deps.now ?? (() => new Date());
    this.batchSize = deps.batchSize ?? 100;
    this.size = this.batchSize;
  }

  /** Runs if the last finished run is a day old (or there was none). */
  async runIfDue(): Promise<Record<string, number> | undefined> {
    const last = await this.deps.db
      .selectFrom('retention_runs')
      .select('started_at')
      .where('finished_at', 'is not', null)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last && this.now().getTime() - last.started_at.getTime() < RUN_EVERY_MS) return undefined;
    return this.run();
  }

  /** One run now; undefined when another replica holds the lease or a stop began. */
  run(): Promise<Record<string, number> | undefined> {
    if (this.runs.stopping) return Promise.resolve(undefined);
    return this.runs.track(this.leasedRun());
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  async lastRuns(limit = 10): Promise<RetentionRun[]> {
    const rows = await this.deps.db
      .selectFrom('retention_runs')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: String(row.id),
      startedAt: row.started_at.toISOString(),
      finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
      deleted: row.deleted,
      error: row.error,
    }));
  }

  private async leasedRun(): Promise<Record<string, number> | undefined> {
    const { db } = this.deps;
    if (!(await this.lease.take(this.now()))) return undefined;
    const deleted: Record<string, number> = {};
    const { id } = await db
      .insertInto('retention_runs')
      .values({ started_at: this.now(), holder: this.lease.holder })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const periods = await this.deps.rules.periods();
      const count = (rule: RetentionRuleName, kind: string, n: number) => {
        if (n === 0) return;
        deleted[rule] = (deleted[rule] ?? 0) + n;
        this.deps.observer?.retentionDeleted(rule, kind, n);
      };
      for (const step of DOCUMENT_STEPS) {
        await this.repeat(id, deleted, async () => {
          const batch = await db
            .transaction()
            .execute((trx) =>
              deleteDocumentBatch(trx, this.deps.audit, step, periods, this.now(), this.size),
            );
          let total = 0;
          for (const [rule, counts] of batch) {
            count(rule as RetentionRuleName, 'document', counts.documents);
            total += counts.documents;
          }
          return total;
        });
      }
      const contracts = periods.completed_contracts;
      if (contracts) {
        await this.repeat(id, deleted, async () => {
          const n = await db
            .transaction()
            .execute((trx) => deleteSignedPdfBatch(trx, this.deps.audit, contracts, this.now(), this.size));
          count('completed_contracts', SIGNED_PDF_KIND, n);
          return n;
        });
      }
      const reports = periods.support_reports;
      if (reports) {
        await this.repeat(id, deleted, async () => {
          const n = await db
            .transaction()
            .execute((trx) => deleteSupportReportBatch(trx, this.deps.audit, reports, this.now(), this.size));
          count('support_reports', 'support_report', n);
          return n;
        });
      }
      const mails = periods.mails;
      if (mails) {
        await this.repeat(id, deleted, async () => {
          const n = await db
            .transaction()
            .execute((trx) => deleteSentMailBatch(trx, this.deps.audit, mails, this.now(), this.size * 5));
          count('mails', 'mail', n);
          return n;
        });
        const directory = this.deps.mailDirectory;
        if (directory) {
          await this.repeat(id, deleted, async () => {
            const n = await deleteMailFolderBatch(
              db,
              this.deps.audit,
              directory,
              mails,
              this.now(),
              this.size * 5,
            );
            count('mails', 'mail_file', n);
            return n;
          });
        }
      }
      for (const rule of DELIVERY_RULES) {
        const period = periods[rule];
        if (!period) continue;
        await this.repeat(id, deleted, async () => {
          const n = await db
            .transaction()
            .execute((trx) =>
              deleteDeliveryBatch(trx, this.deps.audit, rule, period, this.now(), this.size * 5),
            );
          count(rule, rule === 'crm_writebacks' ? 'crm_writeback' : 'webhook_delivery', n);
          return n;
        });
      }
      const orphans = periods.webhook_deliveries;
      if (orphans) {
        await this.repeat(id, deleted, async () => {
          const n = await db
            .transaction()
            .execute((trx) =>
              deleteOrphanedEventBatch(trx, this.deps.audit, orphans, this.now(), this.size * 5),
            );
          count('webhook_deliveries', 'webhook_event', n);
          return n;
        });
      }
      const exports = await db.transaction().execute(async (trx) => {
        const n = await deleteExpiredExports(trx, this.now());
        if (n > 0) {
          await this.deps.audit.record(
            {
              actor: RETENTION_ACTOR,
              action: 'retention.delete',
              subject: deletionRunLabel('person_exports'),
              newValue: `${n} ${n === 1 ? 'Export' : 'Exporte'}`,
            },
            trx,
          );
        }
        return n;
      });
      if (exports > 0) deleted.person_exports = exports;
      // After the rules: a contract's files deleted in this run free its erased signer at once.
      const followedUp = (await this.deps.followUp?.run()) ?? 0;
      if (followedUp > 0) deleted.erase_request = followedUp;
      await db
        .updateTable('retention_runs')
        .set({ finished_at: this.now(), deleted: JSON.stringify(deleted) })
        .where('id', '=', id)
        .execute();
      return deleted;
    } catch (error) {
      this.deps.log.error({ err: error, run: id }, 'retention run failed');
      await db
        .updateTable('retention_runs')
        .set({
          deleted: JSON.stringify(deleted),
          // Administrators read this in the Aufbewahrung tab; the cause is in the log above.
          error: RUN_FAILED,
        })
        .where('id', '=', id)
        .execute()
        .catch(() => undefined);
      throw error;
    } finally {
      await this.lease.release().catch(() => undefined);
    }
  }

  /** Batch after batch until one deletes nothing or a stop begins; the lease and the run's counts renewed between. */
  private async repeat(runId: string, deleted: Record<string, number>, batch: () => Promise<number>) {
    while (!this.runs.stopping) {
      const started = performance.now();
      const n = await batch();
      const took = performance.now() - started;
      this.deps.onBatch?.(took, n);
      this.size =
        took > SLOW_BATCH_MS
          ? Math.max(1, Math.floor(this.size / 2))
          : took < SLOW_BATCH_MS / 4
            ? Math.min(this.batchSize, this.size * 2)
            : this.size;
      if (n === 0) return;
      await this.deps.db
        .updateTable('retention_runs')
        .set({ deleted: JSON.stringify(deleted) })
        .where('id', '=', runId)
        .execute();
      if (!(await this.lease.take(this.now()))) throw new Error('retention lease lost to another replica');
    }
  }
}
