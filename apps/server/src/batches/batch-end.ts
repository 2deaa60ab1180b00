import {
  type BatchCounts,
  type BatchItemStatus,
  type BatchVerdict,
  catalogueEntry,
  documentTitle,
  formatDateTime,
} from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { BatchApprovals } from '../approvals/batch-approvals.js';
import type { Database } from '../db/schema.js';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import type { EventSink } from '../shared/product-events.js';

type Executor = Kysely<Database>;

export interface BatchEndDeps {
  audit: AuditLog;
  /** Queues the starter's mail in the transaction that finishes the batch. */
  enqueueMail: (mails: OutgoingMail[], executor: Executor) => Promise<void>;
  /** `batch.completed` for the webhooks, in the same transaction. */
  events?: EventSink<Executor>;
  /** The approvers hear of the batch's deals that wait for them once, when it ends. */
  approvals: Pick<BatchApprovals, 'mailBatch'>;
  publicUrl: string;
}

/**
 * The end of a batch: what happens once, when its last deal is made or failed or cancelled — the
 * starter's mail, the approvers' mail, the audit entry and `batch.completed`.
 */
export class BatchEnd {
  constructor(private readonly deps: BatchEndDeps) {}

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
    await this.deps.approvals.mailBatch(trx, batchId);
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
export async function batchCounts(db: Executor, batchId: string): Promise<BatchCounts> {
  return (await countsOfBatches(db, [batchId])).get(batchId) ?? countsOf([]);
}

/** The counts of several batches in one query (the list of a user's batches). */
export async function countsOfBatches(db: Executor, batchIds: string[]): Promise<Map<string, BatchCounts>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('batch_items')
    .select(['batch_id', 'status', 'verdict', sql<string>`count(*)`.as('n')])
    .where('batch_id', 'in', batchIds)
    .groupBy(['batch_id', 'status', 'verdict'])
    .execute();
  return new Map(batchIds.map((id) => [id, countsOf(rows.filter((row) => row.batch_id === id))]));
}

export function countsOf(rows: { status: BatchItemStatus; verdict: BatchVerdict; n: string }[]): BatchCounts {
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
