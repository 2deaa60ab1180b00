import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../../config/config.js';
import { CrmRefusedError, CrmSignInRefusedError, CrmTransientError } from '../../matches/crm/crm-client.js';
import type { CrmWritebackMapping } from '../../matches/crm/mapping.js';
import { type SalesforceCrmClient, soqlString } from '../../matches/crm/salesforce-crm-client.js';
import { type CrmWriteBack, CrmWritebackRefused, type CrmWriter, type Progress } from './crm-writer.js';

/** An upload of a sealed PDF (base64 in JSON) may take longer than a lookup's deadline. */
export const UPLOAD_DEADLINE_MS = 120_000;

const describeSchema = z.object({
  fields: z.array(z.object({ name: z.string(), type: z.string(), updateable: z.boolean().optional() })),
});
const idSchema = z.object({ records: z.array(z.object({ Id: z.string() })) });
const createdSchema = z.object({ id: z.string() });
const documentSchema = z.object({ records: z.array(z.object({ ContentDocumentId: z.string() })) });

// Salesforce error codes of a refusal that may pass by itself: limits, locks, full storage an
// administrator can free.
const PASSING_CODES = new Set(['REQUEST_LIMIT_EXCEEDED', 'UNABLE_TO_LOCK_ROW', 'STORAGE_LIMIT_EXCEEDED']);

export interface SalesforceWritebackOptions {
  object: string;
  idField: string;
  apiVersion: string;
  mapping: CrmWritebackMapping;
  mappingSource: string;
}

/**
 * The write-back to Salesforce: on completion the sealed PDF becomes a File of the match's record
 * (a ContentVersion with `FirstPublishLocationId`, for which Salesforce links its ContentDocument to
 * the record), and at each status change the fields the mapping's `writeback` names are updated with
 * one PATCH of the record. The link is looked up after the upload and made with a ContentDocumentLink
 * when it is missing (a trigger or an administrator may remove it, a file found again may have lost it):
 * a File the record does not show is not filed.
 *
 * Nothing reaches Salesforce twice: the record's id and the file's id are kept as steps of the
 * delivery, and before an upload the record's files are searched for one with the PDF's MD5
 * (`Checksum`), so an attempt after a crash between the upload and keeping its id finds the file
 * instead of uploading it again. The PATCH sets values and may be repeated.
 */
export class SalesforceWriteback implements CrmWriter {
  private fieldTypes: Promise<Map<string, string>> | undefined;

  constructor(
    private readonly client: SalesforceCrmClient,
    private readonly options: SalesforceWritebackOptions,
  ) {}

  /** The mapping's fields against the object's describe(): a field it does not have stops the start. */
  async check(): Promise<void> {
    await this.types();
  }

  async write(
    writeBack: CrmWriteBack,
    progress: Progress,
    save: (p: Progress) => Promise<void>,
  ): Promise<string> {
    let done = { ...progress };
    try {
      const types = await this.types();
      if (typeof done.recordId !== 'string') {
        done = { ...done, recordId: await this.recordId(writeBack.matchId) };
        await save(done);
      }
      const recordId = done.recordId as string;
      const filed: string[] = [];
      if (writeBack.type === 'envelope.completed' && this.options.mapping.attachSealedPdf) {
        if (typeof done.contentVersionId !== 'string') {
          done = { ...done, contentVersionId: await this.attach(recordId, writeBack) };
          await save(done);
        }
        if (typeof done.contentDocumentLinkId !== 'string') {
          const linkId = await this.linkToRecord(recordId, done.contentVersionId as string);
          done = { ...done, contentDocumentLinkId: linkId };
          await save(done);
        }
        filed.push('versiegeltes PDF als Datei des Datensatzes');
      }
      const fields = this.fieldValues(writeBack, types);
      if (Object.keys(fields).length > 0) {
        await this.client.request(`update ${this.options.object} ${recordId}`, {
          method: 'PATCH',
          url: `${this.base()}/sobjects/${this.options.object}/${recordId}`,
          body: JSON.stringify(fields),
        });
        filed.push(`Status „${writeBack.status}“ (${Object.keys(fields).join(', ')})`);
      }
      return filed.length > 0 ? `${filed.join(' und ')} in Salesforce` : 'nichts zu schreiben';
    } catch (error) {
      throw refusal(error);
    }
  }

  private base(): string {
    return `/services/data/v${this.options.apiVersion}`;
  }

  private types(): Promise<Map<string, string>> {
    if (!this.fieldTypes) {
      const loading = this.describe();
      // A CRM down at start is checked again before the first write-back.
      loading.catch(() => {
        if (this.fieldTypes === loading) this.fieldTypes = undefined;
      });
      this.fieldTypes = loading;
    }
    return this.fieldTypes;
  }

  private async describe(): Promise<Map<string, string>> {
    const { object, mapping, mappingSource } = this.options;
    const answer = describeSchema.safeParse(
      await this.client.request(`describe ${object}`, {
        method: 'GET',
        url: `${this.base()}/sobjects/${object}/describe`,
      }),
    );
    if (!answer.success) throw new CrmTransientError(`describe ${object}: answer without fields`);
    const byName = new Map(answer.data.fields.map((field) => [field.name.toLowerCase(), field]));
    const types = new Map<string, string>();
    const problems: string[] = [];
    for (const key of ['status', 'statusChangedAt', 'signedAt'] as const) {
      const name = mapping[key];
      if (!name) continue;
      const field = byName.get(name.toLowerCase());
      if (!field) problems.push(`writeback.${key} ("${name}"): ${object} has no such field`);
      else if (field.updateable === false)
        problems.push(`writeback.${key} ("${name}"): ${object}.${field.name} cannot be written`);
      else types.set(name, field.type);
    }
    if (problems.length > 0)
      throw new ConfigError(`Invalid CRM mapping ${mappingSource}:\n  ${problems.join('\n  ')}`);
    return types;
  }

  private async recordId(matchId: string): Promise<string> {
    const { object, idField } = this.options;
    const answer = idSchema.safeParse(
      await this.client.soql(
        `query ${object}`,
        `SELECT Id FROM ${object} WHERE ${idField} = ${soqlString(matchId)} LIMIT 1`,
      ),
    );
    if (!answer.success) throw new CrmTransientError(`query ${object}: answer without records`);
    const record = answer.data.records[0];
    if (!record)
      throw new CrmWritebackRefused(`Der Match ${matchId} ist in Salesforce (${object}) nicht vorhanden.`);
    return record.Id;
  }

  private async attach(recordId: string, writeBack: CrmWriteBack): Promise<string> {
    const { pdf, fileName } = await writeBack.loadSealedPdf();
    const md5 = createHash('md5').update(pdf).digest('hex');
    const found = idSchema.safeParse(
      await this.client.soql(
        'query ContentVersion',
        `SELECT Id FROM ContentVersion WHERE FirstPublishLocationId = ${soqlString(recordId)} AND Checksum = ${soqlString(md5)} LIMIT 1`,
      ),
    );
    const existing = found.success ? found.data.records[0] : undefined;
    if (existing) return existing.Id;
    const created = createdSchema.safeParse(
      await this.client.request(
        'upload ContentVersion',
        {
          method: 'POST',
          url: `${this.base()}/sobjects/ContentVersion`,
          body: JSON.stringify({
            Title: fileName.replace(/\.pdf$/i, ''),
            PathOnClient: fileName,
            VersionData: Buffer.from(pdf).toString('base64'),
            FirstPublishLocationId: recordId,
            Description: `Versiegelt; SHA-256 ${writeBack.sealedPdf?.sha256 ?? ''}`.trim(),
          }),
        },
        UPLOAD_DEADLINE_MS,
      ),
    );
    if (!created.success) throw new CrmTransientError('upload ContentVersion: answer without id');
    return created.data.id;
  }

  /** The id of the ContentDocumentLink that shows the version's file on the record, made if missing. */
  private async linkToRecord(recordId: string, contentVersionId: string): Promise<string> {
    const version = documentSchema.safeParse(
      await this.client.soql(
        'query ContentVersion',
        `SELECT ContentDocumentId FROM ContentVersion WHERE Id = ${soqlString(contentVersionId)} LIMIT 1`,
      ),
    );
    if (!version.success) throw new CrmTransientError('query ContentVersion: answer without records');
    const documentId = version.data.records[0]?.ContentDocumentId;
    if (!documentId)
      throw new CrmWritebackRefused(
        `Die hochgeladene Datei (${contentVersionId}) ist in Salesforce nicht mehr vorhanden.`,
      );
    const found = idSchema.safeParse(
      await this.client.soql(
        'query ContentDocumentLink',
        `SELECT Id FROM ContentDocumentLink WHERE LinkedEntityId = ${soqlString(recordId)} AND ContentDocumentId = ${soqlString(documentId)} LIMIT 1`,
      ),
    );
    if (!found.success) throw new CrmTransientError('query ContentDocumentLink: answer without records');
    const existing = found.data.records[0];
    if (existing) return existing.Id;
    const created = createdSchema.safeParse(
      await this.client.request('link ContentDocument', {
        method: 'POST',
        url: `${this.base()}/sobjects/ContentDocumentLink`,
        // Viewer access for those who see the record, as the link FirstPublishLocationId makes.
        body: JSON.stringify({ ContentDocumentId: documentId, LinkedEntityId: recordId, ShareType: 'V' }),
      }),
    );
    if (!created.success) throw new CrmTransientError('link ContentDocument: answer without id');
    return created.data.id;
  }

  private fieldValues(writeBack: CrmWriteBack, types: Map<string, string>): Record<string, string> {
    const { status, statusChangedAt, signedAt } = this.options.mapping;
    const at = (name: string) =>
      types.get(name) === 'date' ? writeBack.at.toISOString().slice(0, 10) : writeBack.at.toISOString();
    return {
      ...(status ? { [status]: writeBack.status } : {}),
      ...(statusChangedAt ? { [statusChangedAt]: at(statusChangedAt) } : {}),
      ...(signedAt && writeBack.type === 'envelope.completed' ? { [signedAt]: at(signedAt) } : {}),
    };
  }
}

/** Salesforce's refusals in German; those another attempt cannot change become `CrmWritebackRefused`. */
function refusal(error: unknown): unknown {
  // The CRM was down at start, and its describe() now lacks a field of the mapping.
  if (error instanceof ConfigError)
    return new CrmWritebackRefused(
      `Die CRM-Zuordnung nennt ein Feld, das Salesforce nicht kennt: ${error.message}`,
      {
        cause: error,
      },
    );
  if (!(error instanceof CrmRefusedError) || error instanceof CrmSignInRefusedError) return error;
  const code = String((error.cause as { errorCode?: unknown } | undefined)?.errorCode ?? '');
  const said = error.message;
  // The token endpoint refused the credentials: fixed by an operator, then the next attempt arrives.
  if (!code) return new CrmSignInRefusedError(said, { cause: error });
  if (PASSING_CODES.has(code)) {
    const why =
      code === 'STORAGE_LIMIT_EXCEEDED'
        ? 'Der Dateispeicher von Salesforce ist voll'
        : 'Salesforce nimmt gerade keine Änderung an';
    return new CrmTransientError(`${why} (${said})`, { cause: error });
  }
  if (code === 'ERROR_HTTP_413' || /too large|exceed|maximum size|STRING_TOO_LONG/i.test(`${code} ${said}`))
    return new CrmWritebackRefused(`Salesforce lehnt die Datei ab: Sie ist zu groß (${said}).`, {
      cause: error,
    });
  if (
    code.startsWith('INSUFFICIENT_ACCESS') ||
    code === 'ERROR_HTTP_403' ||
    code === 'FIELD_INTEGRITY_EXCEPTION'
  )
    return new CrmWritebackRefused(
      `Salesforce verweigert die Berechtigung: Die Integration darf Dateien oder Felder dieses Datensatzes nicht schreiben (${said}).`,
      { cause: error },
    );
  if (code === 'ENTITY_IS_DELETED' || code === 'NOT_FOUND')
    return new CrmWritebackRefused(`Der Datensatz ist in Salesforce nicht mehr vorhanden (${said}).`, {
      cause: error,
    });
  return new CrmWritebackRefused(`Salesforce lehnt die Änderung ab (${said}).`, { cause: error });
}
