import type { DocumentRead, DocumentReadKind } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface ReadEntry {
  at: Date;
  actor: string;
  kind: DocumentReadKind;
  documentId?: string | null;
  envelopeId?: string | null;
  /** An approval request's document: its document and version are looked up when the batch is written. */
  approvalRequestId?: string | null;
  version?: number | null;
  ip?: string | null;
}

/** How many reads wait before they are written at once, and how long at most. */
const FLUSH_AT = 100;
const FLUSH_EVERY_MS = 2_000;

/**
 * Every opening, download and check of a stored file, on record. A read is kept in memory and written
 * with others in one insert, after the answer went out: recording never slows a download. A crash
 * loses the reads of the last two seconds at most (docs/operations.md says so); a stop writes them.
 */
export class ReadsLog {
  private buffer: ReadEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  record(entry: ReadEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_AT) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered; resolves once it is in the database (tests, a stop). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(() => (batch.length > 0 ? this.write(batch) : undefined));
    return this.writing;
  }

  private async write(batch: ReadEntry[]): Promise<void> {
    try {
      const envelopeIds = [
        ...new Set(batch.flatMap((e) => (e.envelopeId && !e.documentId ? [e.envelopeId] : []))),
      ];
      const documentOf = new Map<string, string>();
      if (envelopeIds.length > 0) {
        const rows = await this.db
          .selectFrom('envelopes')
          .select(['id', 'document_id'])
          .where('id', 'in', envelopeIds)
          .execute();
        for (const row of rows) documentOf.set(row.id, row.document_id);
      }
      const approvalIds = [
        ...new Set(batch.flatMap((e) => (e.approvalRequestId ? [e.approvalRequestId] : []))),
      ];
      const versionOf = new Map<string, { document_id: string; document_version: number }>();
      if (approvalIds.length > 0) {
        const rows = await this.db
          .selectFrom('approval_requests')
          .select(['id', 'document_id', 'document_version'])
          .where('id', 'in', approvalIds)
          .execute();
        for (const row of rows) versionOf.set(row.id, row);
      }
      await this.db
        .insertInto('document_reads')
        .values(
          batch.map((entry) => ({
            at: entry.at,
            actor: entry.actor,
            kind: entry.kind,
            document_id:
              entry.documentId ??
              (entry.envelopeId ? documentOf.get(entry.envelopeId) : null) ??
              (entry.approvalRequestId ? versionOf.get(entry.approvalRequestId)?.document_id : null) ??
              null,
            envelope_id: entry.envelopeId ?? null,
            version:
              entry.version ??
              (entry.approvalRequestId ? versionOf.get(entry.approvalRequestId)?.document_version : null) ??
              null,
            ip: entry.ip ?? null,
          })),
        )
        .execute();
    } catch (error) {
      this.log.error({ err: error, reads: batch.length }, 'reads could not be recorded');
    }
  }

  /** A document's reads, newest first: its own files and those of its envelopes. */
  async ofDocument(documentId: string, limit = 500): Promise<DocumentRead[]> {
    const rows = await this.db
      .selectFrom('document_reads')
      .select(['at', 'actor', 'kind', 'version', 'envelope_id'])
      .where((eb) =>
        eb.or([
          eb('document_id', '=', documentId),
          eb(
            'envelope_id',
            'in',
            eb.selectFrom('envelopes').select('id').where('document_id', '=', documentId),
          ),
        ]),
      )
      .orderBy('at', 'desc')
      .orderBy(sql`id`, 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      at: row.at.toISOString(),
      actor: row.actor,
      kind: row.kind as DocumentReadKind,
      version: row.version,
      envelopeId: row.envelope_id,
    }));
  }
}
