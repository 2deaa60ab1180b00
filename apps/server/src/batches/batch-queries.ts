import {
  type Batch,
  type BatchCounts,
  type BatchItem,
  type BatchSummary,
  catalogueEntry,
  documentTitle,
} from '@vertragsgenerator/domain';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { BatchesTable } from '../db/schema-batches.js';
import { notFound } from '../shared/http-error.js';
import type { StaffMember } from '../users/users-repository.js';
import { countsOf, countsOfBatches } from './batch-end.js';

type Executor = Kysely<Database>;

const BATCH_UNKNOWN = 'Diese Serie gibt es nicht, oder sie gehört jemand anderem.';
/** The batches `/serien` lists. */
const LISTED = 50;

export const batchTitle = (docKey: string) => {
  const entry = catalogueEntry(docKey);
  return entry ? documentTitle(entry) : docKey;
};

/** The user's batch, locked for a change when `forUpdate`; 404 for anyone else's. */
export async function ownBatch(
  db: Executor,
  user: StaffMember,
  id: string,
  forUpdate = false,
): Promise<Selectable<BatchesTable>> {
  let query = db.selectFrom('batches').selectAll().where('id', '=', id).where('created_by', '=', user.email);
  if (forUpdate) query = query.forUpdate();
  const batch = await query.executeTakeFirst();
  if (!batch) throw notFound(BATCH_UNKNOWN);
  return batch;
}

/** Reading Serien: a user's batches with their counts, and one batch with every deal. */
export class BatchQueries {
  constructor(private readonly db: Db) {}

  /** The user's batches, newest first: their counts in one query. */
  async list(user: StaffMember): Promise<BatchSummary[]> {
    const batches = await this.db
      .selectFrom('batches')
      .selectAll()
      .where('created_by', '=', user.email)
      .orderBy('created_at', 'desc')
      .limit(LISTED)
      .execute();
    const counts = await countsOfBatches(
      this.db,
      batches.map((batch) => batch.id),
    );
    return batches.map((batch) => summary(batch, counts.get(batch.id)));
  }

  /**
   * One of the user's batches with every deal: its document, its envelope, and the latest Freigabe
   * request of its document (a declined deal may be asked for again from its sender view).
   */
  async get(user: StaffMember, id: string): Promise<Batch> {
    const batch = await ownBatch(this.db, user, id);
    const items = await this.db
      .selectFrom('batch_items as i')
      .leftJoin('documents as d', 'd.id', 'i.document_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('approval_requests as a')
            .select(['a.id', 'a.status'])
            .whereRef('a.document_id', '=', 'i.document_id')
            .orderBy('a.requested_at', 'desc')
            .limit(1)
            .as('a'),
        (join) => join.onTrue(),
      )
      .select([
        'i.id',
        'i.position',
        'i.match_id',
        'i.counterparty',
        'i.values',
        'i.verdict',
        'i.reason',
        'i.status',
        'i.error',
        'i.document_id',
        'i.envelope_id',
        'i.finished_at',
        'd.file_name',
        'a.id as approval_id',
        'a.status as approval_status',
      ])
      .where('i.batch_id', '=', id)
      .orderBy('i.position')
      .execute();
    const counts = await countsOfBatches(this.db, [id]);
    return {
      ...summary(batch, counts.get(id)),
      values: batch.values,
      send:
        batch.send_message === null
          ? null
          : { countersignatory: batch.countersignatory, message: batch.send_message },
      items: items.map(
        (item): BatchItem => ({
          id: item.id,
          position: item.position,
          matchId: item.match_id,
          counterparty: item.counterparty,
          values: item.values,
          verdict: item.verdict,
          reason: item.reason,
          status: item.status,
          error: item.error,
          documentId: item.document_id,
          fileName: item.file_name ?? null,
          envelopeId: item.envelope_id,
          approval:
            item.approval_id && item.approval_status
              ? { id: item.approval_id, status: item.approval_status }
              : null,
          finishedAt: item.finished_at?.toISOString() ?? null,
        }),
      ),
    };
  }
}

function summary(batch: Selectable<BatchesTable>, counts: BatchCounts | undefined): BatchSummary {
  const c = counts ?? countsOf([]);
  const finished = c.done + c.failed;
  const left = c.waiting + c.running;
  const elapsed = batch.started_at ? (Date.now() - batch.started_at.getTime()) / 1000 : 0;
  return {
    id: batch.id,
    docKey: batch.doc_key,
    title: batchTitle(batch.doc_key),
    status: batch.status,
    createdBy: batch.created_by,
    createdAt: batch.created_at.toISOString(),
    startedAt: batch.started_at?.toISOString() ?? null,
    finishedAt: batch.finished_at?.toISOString() ?? null,
    deals: c.waiting + c.running + c.done + c.failed + c.cancelled + c.skipped,
    counts: c,
    secondsLeft:
      batch.status === 'running' && finished > 0 && left > 0 ? Math.ceil((elapsed / finished) * left) : null,
  };
}
