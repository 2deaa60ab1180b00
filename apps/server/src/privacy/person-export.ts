import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PersonExport, PersonHit, PersonSource } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import PizZip from 'pizzip';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { type PersonSearch, REQUEST_LIMIT } from './person-search.js';

/** An export is a download for the person's request, not an archive: it expires after a day. */
export const EXPORT_VALID_MS = 24 * 60 * 60_000;

const idsOf = (hits: PersonHit[], source: PersonSource) => [
  ...new Set(hits.filter((h) => h.source === source).map((h) => h.id)),
];

/** Rows as JSON: binary columns become their size, so the JSON stays readable and the files go beside it. */
function plain<T extends object>(rows: T[]): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        value instanceof Uint8Array ? `(${value.length} Bytes, als Datei im Export)` : value,
      ]),
    ),
  );
}

/**
 * Art. 15 DSGVO: one ZIP with `person.json` (every record that names the person, found by the search,
 * and where) and the files that name them — the documents made with their data, the sealed PDFs and
 * certificates of envelopes they were a recipient of, the signed PDFs uploaded for contracts that name
 * them, the mails of the mail folder. It is kept as a
 * download that expires; the request is an audit entry.
 */
export class PersonExports {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly search: PersonSearch,
    private readonly mailDirectory: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(actor: string, query: string): Promise<PersonExport> {
    const { db } = this;
    const { hits, truncated } = await this.search.find(query, REQUEST_LIMIT);
    const documentIds = idsOf(hits, 'document');
    const recipientIds = idsOf(hits, 'recipient');
    const recipients = recipientIds.length
      ? await db.selectFrom('envelope_recipients').selectAll().where('id', 'in', recipientIds).execute()
      : [];
    const envelopeIds = [...new Set([...recipients.map((r) => r.envelope_id), ...idsOf(hits, 'envelope')])];
    const envelopes = envelopeIds.length
      ? await db.selectFrom('envelopes').selectAll().where('id', 'in', envelopeIds).execute()
      : [];
    const contractRecordIds = idsOf(hits, 'contract_record');
    const contractRecords = contractRecordIds.length
      ? await db
          .selectFrom('contract_records')
          .selectAll()
          .where('id', 'in', contractRecordIds)
          .orderBy('signed_at')
          .execute()
      : [];
    const records = {
      matches: await rowsIn(db, 'matches', 'match_id', idsOf(hits, 'match')),
      documents: plain(
        documentIds.length
          ? await db.selectFrom('documents').selectAll().where('id', 'in', documentIds).execute()
          : [],
      ),
      envelopes: plain(envelopes),
      recipients: plain(recipients),
      envelopeEvents: await rowsIn(db, 'envelope_events', 'id', idsOf(hits, 'envelope_event')),
      mails: await rowsIn(db, 'outgoing_mail', 'id', idsOf(hits, 'mail')),
      staff: await rowsIn(db, 'users', 'email', idsOf(hits, 'staff')),
      accessRequests: await rowsIn(db, 'access_requests', 'id', idsOf(hits, 'access_request')),
      supportReports: await rowsIn(db, 'support_reports', 'id', idsOf(hits, 'support_report')),
      approvalRequests: await rowsIn(db, 'approval_requests', 'id', idsOf(hits, 'approval_request')),
      approvalDecisions: await rowsIn(
        db,
        'approval_decisions',
        'request_id',
        idsOf(hits, 'approval_decision'),
      ),
      webhookEvents: await rowsIn(db, 'webhook_events', 'id', idsOf(hits, 'webhook_event')),
      contractRecords: plain(contractRecords),
      contractEvents: await rowsIn(db, 'contract_events', 'id', idsOf(hits, 'contract_event')),
      // The link itself is not stored, only its SHA-256: when it was made is what there is of it.
      calendarFeeds: await calendarFeedsOf(db, idsOf(hits, 'calendar_feed')),
      reminderSettings: await rowsIn(
        db,
        'contract_reminder_settings',
        'company',
        idsOf(hits, 'reminder_setting'),
      ),
      auditEntries: await rowsIn(db, 'audit_entries', 'id', idsOf(hits, 'audit')),
      // A colleague's own reads of stored files are data about them too.
      documentReads: plain(
        await db
          .selectFrom('document_reads')
          .selectAll()
          .where(sql<boolean>`lower(actor) = ${query.toLowerCase()}`)
          .orderBy('id')
          .limit(10_000)
          .execute(),
      ),
    };
    const zip = new PizZip();
    let files = 0;
    for (const documentId of documentIds) {
      const versions = await db
        .selectFrom('document_versions as v')
        .innerJoin('documents as d', 'd.id', 'v.document_id')
        .select(['v.version', 'v.content', 'd.file_name'])
        .where('v.document_id', '=', documentId)
        .execute();
      for (const version of versions) {
        zip.file(
          `dateien/dokumente/${documentId}/v${version.version}-${safe(version.file_name)}`,
          version.content,
        );
        files++;
      }
    }
    for (const envelope of envelopes) {
      if (envelope.sealed_pdf) {
        zip.file(`dateien/umschlaege/${envelope.id}/gesiegelt.pdf`, envelope.sealed_pdf);
        files++;
      }
      if (envelope.certificate) {
        zip.file(`dateien/umschlaege/${envelope.id}/zertifikat.pdf`, envelope.certificate);
        files++;
      }
    }
    for (const record of contractRecords) {
      if (record.signed_pdf) {
        zip.file(`dateien/vertraege/${record.id}/unterschrieben.pdf`, record.signed_pdf);
        files++;
      }
    }
    if (this.mailDirectory) {
      for (const name of idsOf(hits, 'mail_file')) {
        const content = await readFile(join(this.mailDirectory, name)).catch(() => undefined);
        if (content) {
          zip.file(`dateien/mails/${name}`, content);
          files++;
        }
      }
    }
    const created = this.now();
    const count = Object.values(records).reduce((sum, rows) => sum + rows.length, 0);
    zip.file(
      'person.json',
      JSON.stringify(
        {
          suche: query,
          erstelltAm: created.toISOString(),
          // Sources with more records than one export takes: a second export after an erase takes the rest.
          ...(truncated.length > 0 ? { gekuerztBei: truncated } : {}),
          fundstellen: hits,
          datensaetze: records,
        },
        null,
        2,
      ),
    );
    const content = zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
    const expires = new Date(created.getTime() + EXPORT_VALID_MS);
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('person_exports')
        .values({ person: query, created_by: actor, created_at: created, expires_at: expires, content })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.audit.record(
        {
          actor,
          action: 'person.export',
          subject: query,
          newValue: `${count} Datensätze, ${files} Dateien, gültig bis ${expires.toISOString()}`,
        },
        trx,
      );
      await deleteExpiredExports(trx, created);
      return inserted;
    });
    return { id: row.id, expiresAt: expires.toISOString(), records: count, files };
  }

  /** The ZIP while its download is valid; 410 after. */
  async download(id: string): Promise<{ content: Uint8Array; fileName: string }> {
    const row = await this.db
      .selectFrom('person_exports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Diesen Export gibt es nicht (mehr).');
    if (row.expires_at.getTime() < this.now().getTime()) {
      throw new HttpError(410, 'expired', 'Dieser Export ist abgelaufen. Bitte erstelle einen neuen.');
    }
    return { content: row.content, fileName: `Auskunft-${safe(row.person)}.zip` };
  }
}

/** Exports whose download has ended: the deletion run and each new export delete them. */
export async function deleteExpiredExports(db: Kysely<Database>, now: Date): Promise<number> {
  const deleted = await db.deleteFrom('person_exports').where('expires_at', '<', now).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** An erase deletes the exports made of the person: by the address or name they were asked for. */
export async function deleteExportsOf(trx: Kysely<Database>, terms: readonly string[]): Promise<number> {
  if (terms.length === 0) return 0;
  const deleted = await trx
    .deleteFrom('person_exports')
    .where(
      sql<boolean>`lower(regexp_replace(trim(person), '[[:space:]]+', ' ', 'g')) in (${sql.join(terms)})`,
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

function safe(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 100);
}

async function rowsIn(
  db: Db,
  table:
    | 'matches'
    | 'envelope_events'
    | 'outgoing_mail'
    | 'users'
    | 'access_requests'
    | 'support_reports'
    | 'approval_requests'
    | 'approval_decisions'
    | 'webhook_events'
    | 'contract_events'
    | 'contract_reminder_settings'
    | 'audit_entries',
  column: string,
  ids: string[],
): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  // biome-ignore lint/suspicious/noExplicitAny: one lookup by key for tables of different shapes
  const rows = await (db as any).selectFrom(table).selectAll().where(column, 'in', ids).execute();
  return plain(rows);
}

/** A user's calendar subscribe links by address: when each was made, never the SHA-256 of its token. */
async function calendarFeedsOf(db: Db, emails: string[]): Promise<Record<string, unknown>[]> {
  if (emails.length === 0) return [];
  return plain(
    await db
      .selectFrom('calendar_feeds')
      .select(['user_email', 'created_at'])
      .where('user_email', 'in', emails)
      .execute(),
  );
}
