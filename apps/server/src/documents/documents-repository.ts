import type { DataList, FormName } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../sha256.js';

export interface NewDocument {
  matchId: string;
  docKey: string;
  form: FormName;
  createdBy: string;
  fileName: string;
  dataList: DataList;
  dataSha256: string;
}

/**
 * The stored documents of every match. A document is first recorded as `rendering` with what the
 * user submitted, then either gets its first version and `ready` in one transaction, or `failed`
 * with the reason: a document is never half stored.
 */
export class DocumentsRepository {
  constructor(private readonly db: Db) {}

  /** Records a document about to be rendered; returns its id. */
  async create(document: NewDocument): Promise<string> {
    const row = await this.db
      .insertInto('documents')
      .values({
        match_id: document.matchId,
        doc_key: document.docKey,
        form: document.form,
        created_by: document.createdBy,
        status: 'rendering',
        file_name: document.fileName,
        data: JSON.stringify(document.dataList),
        data_sha256: document.dataSha256,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Stores the rendered output as version 1 and marks the document ready. */
  async complete(
    id: string,
    output: { content: Uint8Array; templateSha256: string; createdBy: string },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('document_versions')
        .values({
          document_id: id,
          version: 1,
          content: output.content,
          sha256: sha256Hex(output.content),
          size: output.content.byteLength,
          created_by: output.createdBy,
        })
        .execute();
      await trx
        .updateTable('documents')
        .set({ status: 'ready', template_sha256: output.templateSha256 })
        .where('id', '=', id)
        .execute();
    });
  }

  async fail(id: string, error: string, templateSha256?: string): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ status: 'failed', error, template_sha256: templateSha256 ?? null })
      .where('id', '=', id)
      .execute();
  }
}
