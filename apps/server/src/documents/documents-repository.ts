import type { ContractTerms, DataList, DocumentClause, FormName } from '@vertragsgenerator/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, DocumentStatus, DocumentsTable, DocumentVersionsTable } from '../db/schema.js';
import type { EventSink } from '../shared/product-events.js';
import { sha256Hex } from '../shared/sha256.js';

export interface NewDocument {
  matchId: string;
  docKey: string;
  form: FormName;
  createdBy: string;
  fileName: string;
  dataList: DataList;
  dataSha256: string;
  terms?: ContractTerms;
}

/** A document without what it was made of: what the editor and the file downloads need. */
export type DocumentSummary = Pick<
  Selectable<DocumentsTable>,
  'id' | 'match_id' | 'doc_key' | 'file_name' | 'created_by' | 'created_at' | 'status'
>;

/**
 * The status a reader sees. A render ends within the renderer's deadline (20 s from its submission),
 * so a document still `rendering` minutes later was abandoned by a server that stopped mid-render
 * (crash, restart, deployment): it is reported as failed, and the user generates it again. Computed
 * when read, so that no replica has to sweep and none can mistake another's live render for dead.
 */
export const documentStatus = sql<DocumentStatus>`case
  when documents.status = 'rendering' and documents.created_at < now() - interval '2 minutes' then 'failed'
  else documents.status end`.as('status');

/** The row of a document about to be rendered: what the user submitted, kept before anything can fail. */
function newDocumentRow(document: NewDocument) {
  return {
    match_id: document.matchId,
    doc_key: document.docKey,
    form: document.form,
    created_by: document.createdBy,
    status: 'rendering' as const,
    file_name: document.fileName,
    data: JSON.stringify(document.dataList),
    data_sha256: document.dataSha256,
    terms: document.terms ? JSON.stringify(document.terms) : null,
  };
}

/** A version without its content. */
export type VersionSummary = Omit<Selectable<DocumentVersionsTable>, 'document_id' | 'content'>;

/** What a save did: stored the next version, or found that someone else had stored it first. */
export type SaveOutcome = { saved: VersionSummary } | { conflict: VersionSummary };

const VERSION_COLUMNS = ['version', 'size', 'sha256', 'created_by', 'created_at'] as const;

/**
 * The stored documents of every match. A document is first recorded as `rendering` with what the
 * user submitted, then either gets its first version and `ready` in one transaction, or `failed`
 * with the reason: a document is never half stored.
 */
export class DocumentsRepository {
  constructor(
    private readonly db: Db,
    /** Told of each generated document in the transaction that stores it (webhooks). */
    private readonly events?: EventSink<Kysely<Database>>,
  ) {}

  /** Records a document about to be rendered; returns its id. */
  async create(document: NewDocument): Promise<string> {
    const row = await this.db
      .insertInto('documents')
      .values(newDocumentRow(document))
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * The document of a batch's deal: recorded once, however often the deal is tried (the index on
   * `batch_item_id` is unique). A deal tried again after its render was lost (a server killed midway)
   * renders into the same document; `ready` when an earlier try stored it already.
   */
  async claimForBatchItem(
    batchItemId: string,
    document: NewDocument,
  ): Promise<{ id: string; ready: boolean }> {
    const inserted = await this.db
      .insertInto('documents')
      .values({ ...newDocumentRow(document), batch_item_id: batchItemId })
      .onConflict((conflict) =>
        conflict.column('batch_item_id').where('batch_item_id', 'is not', null).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, ready: false };
    const existing = await this.db
      .selectFrom('documents')
      .select(['id', 'status'])
      .where('batch_item_id', '=', batchItemId)
      .executeTakeFirstOrThrow();
    return { id: existing.id, ready: existing.status === 'ready' };
  }

  /**
   * Stores the rendered output as version 1 and marks the document ready, in one statement: it is as
   * atomic as a transaction, and one round trip instead of four (on the embedded database each one
   * crosses to the database's thread and back). With an event sink, that statement and the event share
   * a transaction.
   */
  async complete(
    id: string,
    output: {
      content: Uint8Array;
      templateSha256: string;
      templateVersion: number | null;
      createdBy: string;
      /** The clauses placed in it; none for a template that places none. */
      clauses?: DocumentClause[];
    },
  ): Promise<void> {
    const { events } = this;
    if (!events) {
      await this.storeFirstVersion(this.db, id, output);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      if (await this.storeFirstVersion(trx, id, output))
        await events.record({ kind: 'document.generated', documentId: id }, trx);
    });
  }

  /**
   * False when the document was stored already: a batch's deal rendered twice (a lease that ran out
   * while its render was still under way) keeps the first render, and its event is recorded once.
   */
  private async storeFirstVersion(
    executor: Kysely<Database>,
    id: string,
    output: {
      content: Uint8Array;
      templateSha256: string;
      templateVersion: number | null;
      createdBy: string;
      /** The clauses placed in it; none for a template that places none. */
      clauses?: DocumentClause[];
    },
  ): Promise<boolean> {
    const result = await executor
      .with('first_version', (db) =>
        db
          .insertInto('document_versions')
          .values({
            document_id: id,
            version: 1,
            content: output.content,
            sha256: sha256Hex(output.content),
            size: output.content.byteLength,
            created_by: output.createdBy,
          })
          .onConflict((conflict) => conflict.columns(['document_id', 'version']).doNothing()),
      )
      .updateTable('documents')
      .set({
        status: 'ready',
        template_sha256: output.templateSha256,
        template_version: output.templateVersion,
        clauses: output.clauses && output.clauses.length > 0 ? JSON.stringify(output.clauses) : null,
      })
      .where('id', '=', id)
      .where('status', '!=', 'ready')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** `template`: the version that was being rendered, when it was found. */
  async fail(
    id: string,
    error: string,
    template?: { sha256: string; version: number | null },
  ): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({
        status: 'failed',
        error,
        template_sha256: template?.sha256 ?? null,
        template_version: template?.version ?? null,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Callers check the id is a UUID: PostgreSQL refuses anything else in a uuid comparison. */
  async find(id: string): Promise<DocumentSummary | undefined> {
    return this.db
      .selectFrom('documents')
      .select(['id', 'match_id', 'doc_key', 'file_name', 'created_by', 'created_at', documentStatus])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Newest first. */
  async versions(id: string): Promise<VersionSummary[]> {
    return this.db
      .selectFrom('document_versions')
      .select(VERSION_COLUMNS)
      .where('document_id', '=', id)
      .orderBy('version', 'desc')
      .execute();
  }

  /** `executor`: the caller's transaction, where it reads within one (PGlite has a single connection). */
  async versionContent(
    id: string,
    version: number,
    executor: Kysely<Database> = this.db,
  ): Promise<Uint8Array | undefined> {
    const row = await executor
      .selectFrom('document_versions')
      .select('content')
      .where('document_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return row?.content;
  }

  /** Undefined while the document is rendering, or when rendering failed. */
  async latestContent(
    id: string,
    executor: Kysely<Database> = this.db,
  ): Promise<{ version: number; content: Uint8Array } | undefined> {
    return executor
      .selectFrom('document_versions')
      .select(['version', 'content'])
      .where('document_id', '=', id)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Stores an edit of `baseVersion` as the next version, if that is still the latest; otherwise
   * answers the newer version, so the user learns whose save they would overwrite. Only for `ready`
   * documents, which always have a version 1.
   */
  async addVersion(
    id: string,
    baseVersion: number,
    content: Uint8Array,
    createdBy: string,
  ): Promise<SaveOutcome> {
    return this.db
      .transaction()
      .execute((trx) => this.addVersionIn(trx, id, baseVersion, content, createdBy));
  }

  /** `addVersion` in the caller's transaction (a negotiation stores a round's version with its record). */
  async addVersionIn(
    trx: Kysely<Database>,
    id: string,
    baseVersion: number,
    content: Uint8Array,
    createdBy: string,
  ): Promise<SaveOutcome> {
    // Concurrent saves of one document queue up on its row, so the second reads the first's
    // version as latest instead of both storing the same next version. NO KEY UPDATE, not UPDATE:
    // creating an envelope for the document (a foreign key share lock) need not wait for a save.
    await trx
      .selectFrom('documents')
      .select('id')
      .where('id', '=', id)
      .forNoKeyUpdate()
      .executeTakeFirstOrThrow();
    const latest = await trx
      .selectFrom('document_versions')
      .select(VERSION_COLUMNS)
      .where('document_id', '=', id)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    if (latest.version !== baseVersion) return { conflict: latest };
    const saved = await trx
      .insertInto('document_versions')
      .values({
        document_id: id,
        version: latest.version + 1,
        content,
        sha256: sha256Hex(content),
        size: content.byteLength,
        created_by: createdBy,
      })
      .returning(VERSION_COLUMNS)
      .executeTakeFirstOrThrow();
    return { saved };
  }
}
