import {
  BATCH_MAX_DEALS,
  type Batch,
  type BatchCheckRequest,
  type BatchSend,
  type BatchSummary,
  batchSendSchema,
  type CatalogueEntry,
  catalogueEntry,
  DATA_LIST_SCHEMAS,
  mayGenerate,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { HttpError, notFound } from '../shared/http-error.js';
import type { Countersignature } from '../signature/countersignature.js';
import { templateDataFor } from '../templates/companies.js';
import { documentFileName } from '../templates/file-name.js';
import type { Renderer, TemplateSources } from '../templates/renderer.js';
import type { StaffMember } from '../users/users-repository.js';
import { type BatchCheckDeps, checkDeal, checkDeals } from './batch-check.js';
import { type BatchEnd, batchCounts } from './batch-end.js';
import { BatchInputError, type BatchRow, checkedPastedRows, fileRows } from './batch-input.js';
import { BatchQueries, batchTitle, ownBatch } from './batch-queries.js';
import type { BatchRunner } from './batch-runner.js';

export interface BatchesDeps extends BatchCheckDeps {
  /** Checks a batch's countersignatory as a direct send would, and offers the choice. */
  countersignature: Pick<Countersignature, 'countersigner' | 'setting'>;
  db: Db;
  runner: BatchRunner;
  end: BatchEnd;
  audit: AuditLog;
  renderer: Renderer;
  templates: TemplateSources;
}

/** Rows per INSERT: 1,000 deals in five statements, far below the parameter limit. */
const INSERT_CHUNK = 200;

const invalid = (message: string, fields: Record<string, string[]>) =>
  new HttpError(400, 'invalid_input', message, fields);

/**
 * Serien: a batch checked (every deal loaded and validated, nothing made), started, followed, its failed
 * deals tried again or its waiting ones cancelled. A batch is its starter's: nobody else sees it.
 */
export class Batches {
  private readonly queries: BatchQueries;

  constructor(private readonly deps: BatchesDeps) {
    this.queries = new BatchQueries(deps.db);
  }

  /** Checks the deals and stores the batch as `checked`, with what will happen to each deal. */
  async check(user: StaffMember, request: BatchCheckRequest, log: FastifyBaseLogger): Promise<Batch> {
    const entry = batchEntry(user, request.docKey);
    // An envelope goes out in the name of who starts the batch, unless the values name a sender.
    const sender =
      entry.form === 'docusign' ? { Absender_UserName: user.name, Absender_Email: user.email } : {};
    const common = commonValues(entry, { ...sender, ...request.values });
    const sending = await this.sending(entry, request.send);
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
          ...(sending ? { countersignatory: sending.countersignatory, send_message: sending.message } : {}),
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

  /** What the batch form offers as countersignatory for the envelopes of `docKey`. */
  countersignatureOptions(user: StaffMember, docKey: string) {
    const entry = batchEntry(user, docKey);
    if (entry.form !== 'docusign') throw invalid('Nur E-Signatur-Verträge werden gegengezeichnet.', {});
    return this.deps.countersignature.setting(entry.key);
  }

  /**
   * E-signature contracts: how every envelope goes out, checked once as a direct send checks it (the
   * countersignatory one of the company's, or none where the family allows it). Null for Word documents.
   */
  private async sending(entry: CatalogueEntry, send: BatchCheckRequest['send']): Promise<BatchSend | null> {
    if (entry.form !== 'docusign') return null;
    const parsed = batchSendSchema.safeParse(send);
    if (!parsed.success)
      throw invalid('Bitte wähle, wer für die Firma gegenzeichnet.', {
        'send.countersignatory': ['Bitte wähle, wer für die Firma gegenzeichnet.'],
      });
    try {
      await this.deps.countersignature.countersigner(
        entry.key,
        { recipients: [], countersignatory: parsed.data.countersignatory },
        this.deps.db,
      );
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 400)
        throw invalid(error.message, { 'send.countersignatory': [error.message] });
      throw error;
    }
    return parsed.data;
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
          subject: `Serie ${batchTitle(batch.doc_key)}`,
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
          subject: `Serie ${batchTitle(batch.doc_key)}`,
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
      else await this.deps.end.finishIfDone(trx, id);
      await this.deps.audit.record(
        {
          actor: user.email,
          action: 'batch.cancel',
          subject: `Serie ${batchTitle(batch.doc_key)}`,
          newValue: `${cancelled.numUpdatedRows} Deals abgebrochen`,
        },
        trx,
      );
    });
    return this.get(user, id);
  }

  /** The user's batches, newest first, with their counts. */
  list(user: StaffMember): Promise<BatchSummary[]> {
    return this.queries.list(user);
  }

  /** One of the user's batches with every deal. */
  get(user: StaffMember, id: string): Promise<Batch> {
    return this.queries.get(user, id);
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
}

/** The key's entry, if it can be made as a batch and the user may generate it. */
function batchEntry(user: StaffMember, docKey: string): CatalogueEntry {
  const entry = catalogueEntry(docKey);
  if (!entry)
    throw invalid(`Für diese Auswahl gibt es kein Dokument (${docKey}).`, {
      docKey: ['Unbekanntes Dokument.'],
    });
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
