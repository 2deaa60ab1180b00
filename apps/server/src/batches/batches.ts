import {
  BATCH_MAX_DEALS,
  type Batch,
  type BatchCheckRequest,
  type BatchItem,
  type BatchSummary,
  type CatalogueEntry,
  catalogueEntry,
  DATA_LIST_SCHEMAS,
  documentTitle,
  mayGenerate,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { BatchesTable } from '../db/schema-batches.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { templateDataFor } from '../templates/companies.js';
import { documentFileName } from '../templates/file-name.js';
import type { Renderer, TemplateSources } from '../templates/renderer.js';
import type { StaffMember } from '../users/users-repository.js';
import { type BatchCheckDeps, checkDeal, checkDeals } from './batch-check.js';
import { BatchInputError, type BatchRow, checkedPastedRows, fileRows } from './batch-input.js';
import { type BatchRunner, batchCounts } from './batch-runner.js';

type Executor = Kysely<Database>;

export interface BatchesDeps extends BatchCheckDeps {
  db: Db;
  runner: BatchRunner;
  audit: AuditLog;
  renderer: Renderer;
  templates: TemplateSources;
}

const BATCH_UNKNOWN = 'Diese Serie gibt es nicht, oder sie gehört jemand anderem.';
/** Rows per INSERT: 1,000 deals in five statements, far below the parameter limit. */
const INSERT_CHUNK = 200;

const invalid = (message: string, fields: Record<string, string[]>) =>
  new HttpError(400, 'invalid_input', message, fields);

/**
 * Serien: a batch checked (every deal loaded and validated, nothing made), started, followed, its failed
 * deals tried again or its waiting ones cancelled. A batch is its starter's: nobody else sees it.
 */
export class Batches {
  constructor(private readonly deps: BatchesDeps) {}

  /** Checks the deals and stores the batch as `checked`, with what will happen to each deal. */
  async check(user: StaffMember, request: BatchCheckRequest, log: FastifyBaseLogger): Promise<Batch> {
    const entry = batchEntry(user, request.docKey);
    const common = commonValues(entry, request.values ?? {});
    const rows = await inputRows(entry, request);
    const checked = await checkDeals(entry, common, rows, this.deps, log);
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const batch = await trx
        .insertInto('batches')
        .values({
          doc_key: entry.key,
          form: entry.form,
          status: 'checked',
          values: JSON.stringify(common),
          source: request.file ? (/\.xlsx$/i.test(request.file.name) ? 'xlsx' : 'csv') : 'ids',
          created_by: user.email,
          created_by_name: user.name,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let start = 0; start < checked.length; start += INSERT_CHUNK) {
        await trx
          .insertInto('batch_items')
          .values(
            checked.slice(start, start + INSERT_CHUNK).map((deal, index) => ({
              batch_id: batch.id,
              position: start + index + 1,
              match_id: deal.row.matchId,
              counterparty: deal.counterparty,
              values: JSON.stringify(deal.values),
              verdict: deal.verdict,
              reason: deal.reason,
              status: deal.verdict === 'cannot' ? 'skipped' : 'waiting',
            })),
          )
          .execute();
      }
      return batch.id;
    });
    return this.get(user, id);
  }

  /** Starts a checked batch: its runner makes the documents from now on, on any replica. */
  async start(user: StaffMember, id: string): Promise<Batch> {
    await this.deps.db.transaction().execute(async (trx) => {
      const batch = await ownBatch(trx, user, id, true);
      batchEntry(user, batch.doc_key);
      if (batch.status !== 'checked')
        throw new HttpError(409, 'batch_started', 'Diese Serie ist schon gestartet oder beendet.');
      const counts = await batchCounts(trx, id);
      if (counts.waiting === 0)
        throw new HttpError(
          409,
          'nothing_ready',
          'Kein Deal dieser Serie ist bereit; es gibt nichts zu erstellen.',
        );
      await trx
        .updateTable('batches')
        .set({ status: 'running', started_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute();
      await this.deps.audit.record(
        {
          actor: user.email,
          action: 'batch.start',
          subject: `Serie ${titleOf(batch.doc_key)}`,
          newValue: `${counts.waiting} Deals`,
        },
        trx,
      );
    });
    this.deps.runner.soon();
    return this.get(user, id);
  }

  /** The failed deals wait again; a finished batch runs again for them. */
  async retry(user: StaffMember, id: string): Promise<Batch> {
    await this.deps.db.transaction().execute(async (trx) => {
      const batch = await ownBatch(trx, user, id, true);
      const retried = await trx
        .updateTable('batch_items')
        .set({ status: 'waiting', error: null, finished_at: null })
        .where('batch_id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (retried.numUpdatedRows === 0n)
        throw new HttpError(409, 'nothing_failed', 'Kein Deal dieser Serie ist fehlgeschlagen.');
      await trx
        .updateTable('batches')
        .set({ status: 'running', finished_at: null })
        .where('id', '=', id)
        .execute();
      await this.deps.audit.record(
        {
          actor: user.email,
          action: 'batch.retry',
          subject: `Serie ${titleOf(batch.doc_key)}`,
          newValue: `${retried.numUpdatedRows} Deals`,
        },
        trx,
      );
    });
    this.deps.runner.soon();
    return this.get(user, id);
  }

  /** Cancels the deals that have not started; those under way finish. */
  async cancel(user: StaffMember, id: string): Promise<Batch> {
    await this.deps.db.transaction().execute(async (trx) => {
      const batch = await ownBatch(trx, user, id, true);
      if (batch.status === 'finished' || batch.status === 'cancelled')
        throw new HttpError(409, 'batch_ended', 'Diese Serie ist schon beendet.');
      const cancelled = await trx
        .updateTable('batch_items')
        .set({ status: 'cancelled', finished_at: sql<Date>`now()` })
        .where('batch_id', '=', id)
        .where('status', '=', 'waiting')
        .executeTakeFirst();
      if (batch.status === 'checked')
        await trx
          .updateTable('batches')
          .set({ status: 'cancelled', finished_at: sql<Date>`now()` })
          .where('id', '=', id)
          .execute();
      else await this.deps.runner.finishIfDone(trx, id);
      await this.deps.audit.record(
        {
          actor: user.email,
          action: 'batch.cancel',
          subject: `Serie ${titleOf(batch.doc_key)}`,
          newValue: `${cancelled.numUpdatedRows} Deals abgebrochen`,
        },
        trx,
      );
    });
    return this.get(user, id);
  }

  /** The user's batches, newest first, with their counts. */
  async list(user: StaffMember): Promise<BatchSummary[]> {
    const batches = await this.deps.db
      .selectFrom('batches')
      .selectAll()
      .where('created_by', '=', user.email)
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    return Promise.all(batches.map((batch) => this.summary(this.deps.db, batch)));
  }

  /** One of the user's batches with every deal. */
  async get(user: StaffMember, id: string): Promise<Batch> {
    const batch = await ownBatch(this.deps.db, user, id);
    const items = await this.deps.db
      .selectFrom('batch_items as i')
      .leftJoin('documents as d', 'd.id', 'i.document_id')
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
        'i.finished_at',
        'd.file_name',
      ])
      .where('i.batch_id', '=', id)
      .orderBy('i.position')
      .execute();
    return {
      ...(await this.summary(this.deps.db, batch)),
      values: batch.values,
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
          finishedAt: item.finished_at?.toISOString() ?? null,
        }),
      ),
    };
  }

  /** A deal's document rendered as the run would make it, and not stored: the check's preview. */
  async preview(user: StaffMember, id: string, itemId: string, log: FastifyBaseLogger) {
    const batch = await ownBatch(this.deps.db, user, id);
    const entry = batchEntry(user, batch.doc_key);
    const item = await this.deps.db
      .selectFrom('batch_items')
      .select(['match_id', 'values', 'verdict'])
      .where('batch_id', '=', id)
      .where('id', '=', itemId)
      .executeTakeFirst();
    if (!item) throw notFound('Diesen Deal gibt es in der Serie nicht.');
    if (item.verdict === 'cannot')
      throw new HttpError(
        409,
        'cannot',
        'Für diesen Deal lässt sich kein Dokument erstellen; der Grund steht in der Tabelle.',
      );
    const match = await this.deps.matches.find(item.match_id, log);
    if (!match) throw notFound('Diesen Match gibt es im CRM nicht mehr.');
    const deal = checkDeal(entry, match, item.values, this.deps.companyData);
    if ('reason' in deal)
      throw new HttpError(409, 'changed', `Seit der Prüfung im CRM geändert: ${deal.reason}`);
    const data = templateDataFor(entry, match, deal.dataList, this.deps.companyData, new Date());
    const rendered = await this.deps.renderer.render(await this.deps.templates.current(entry.template), data);
    return { fileName: `Vorschau ${documentFileName(entry, data)}`, content: rendered.content };
  }

  private async summary(db: Executor, batch: Selectable<BatchesTable>): Promise<BatchSummary> {
    const counts = await batchCounts(db, batch.id);
    const finished = counts.done + counts.failed;
    const left = counts.waiting + counts.running;
    const elapsed = batch.started_at ? (Date.now() - batch.started_at.getTime()) / 1000 : 0;
    return {
      id: batch.id,
      docKey: batch.doc_key,
      title: titleOf(batch.doc_key),
      status: batch.status,
      createdBy: batch.created_by,
      createdAt: batch.created_at.toISOString(),
      startedAt: batch.started_at?.toISOString() ?? null,
      finishedAt: batch.finished_at?.toISOString() ?? null,
      deals:
        counts.waiting + counts.running + counts.done + counts.failed + counts.cancelled + counts.skipped,
      counts: {
        ready: counts.ready,
        approval: counts.approval,
        cannot: counts.cannot,
        waiting: counts.waiting,
        running: counts.running,
        done: counts.done,
        waitingApproval: counts.waitingApproval,
        failed: counts.failed,
        cancelled: counts.cancelled,
        skipped: counts.skipped,
      },
      secondsLeft:
        batch.status === 'running' && finished > 0 && left > 0
          ? Math.ceil((elapsed / finished) * left)
          : null,
    };
  }
}

const titleOf = (docKey: string) => {
  const entry = catalogueEntry(docKey);
  return entry ? documentTitle(entry) : docKey;
};

/** The key's entry, if it can be made as a batch and the user may generate it. */
function batchEntry(user: StaffMember, docKey: string): CatalogueEntry {
  const entry = catalogueEntry(docKey);
  if (!entry)
    throw invalid(`Für diese Auswahl gibt es kein Dokument (${docKey}).`, {
      docKey: ['Unbekanntes Dokument.'],
    });
  if (entry.form === 'docusign')
    throw invalid(
      'Als Serie entstehen derzeit Word-Dokumente: Verlängerungen, Zusatzvereinbarungen, Kündigungen, Angebote und DOCX-Verträge. E-Signatur-Umschläge gehen noch einzeln.',
      { docKey: ['Als Serie noch nicht möglich.'] },
    );
  if (!mayGenerate(user.permission, entry))
    throw new HttpError(
      403,
      'forbidden',
      'Dieses Dokument darfst du mit deiner Berechtigung nicht erstellen.',
    );
  return entry;
}

/** The values the same for every deal, each checked as its form checks it (a deal's own come later). */
function commonValues(entry: CatalogueEntry, values: Record<string, unknown>): Record<string, unknown> {
  const { vertragspartner_type: _partner, ...given } = values;
  const parsed = DATA_LIST_SCHEMAS[entry.form].partial().safeParse(given);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.') || 'values';
      fields[field] = [...(fields[field] ?? []), issue.message];
    }
    throw invalid('Die Angaben für alle Deals sind unvollständig oder ungültig.', fields);
  }
  // Empty fields are left out: a deal's own value, or none.
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null && value !== ''));
}

/** The deals of the request: a file's lines, or the pasted IDs. */
async function inputRows(entry: CatalogueEntry, request: BatchCheckRequest): Promise<BatchRow[]> {
  let rows: BatchRow[];
  try {
    rows = request.file
      ? await fileRows(entry, request.file.name, Buffer.from(request.file.content, 'base64'))
      : checkedPastedRows(request.matchIds ?? '');
  } catch (error) {
    if (error instanceof BatchInputError)
      throw invalid(
        request.file
          ? 'Die Datei lässt sich so nicht übernehmen.'
          : 'Die Match-IDs lassen sich so nicht übernehmen.',
        error.problems,
      );
    throw error;
  }
  if (rows.length === 0)
    throw invalid('Keine Match-ID gefunden.', {
      [request.file ? 'file' : 'matchIds']: ['Keine Match-ID gefunden.'],
    });
  if (rows.length > BATCH_MAX_DEALS)
    throw invalid('Zu viele Deals.', { matchIds: ['Höchstens 1.000 Deals.'] });
  return rows;
}

/** The user's batch, locked for a change when `forUpdate`; 404 for anyone else's. */
async function ownBatch(
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
