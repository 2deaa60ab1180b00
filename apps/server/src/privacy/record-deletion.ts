import {
  dueBefore,
  RETENTION_RULE_LABELS,
  type RetentionPeriod,
  type RetentionRuleName,
} from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Database } from '../db/schema.js';
import { RETENTION_ACTOR } from './document-deletion.js';
import { heldMatches } from './legal-holds.js';

/** SQL over `outgoing_mail as m`: the mail is about an envelope of a held match. */
export const mailOfHeldMatch = sql<boolean>`exists (select 1 from envelopes e
  where m.reference = 'envelope:' || e.id::text and e.match_id in ${heldMatches})`;

/** A row a rule deleted, as its deletion record keeps it: what it was and the SHA-256 of its content. */
export interface DeletedRow {
  subjectId: string;
  matchId: string | null;
  sha256: string;
}

/** A deletion record for each row a rule deleted: the history keeps that they existed. */
export async function recordDeletedRows(
  trx: Kysely<Database>,
  now: Date,
  rule: RetentionRuleName,
  kind: string,
  rows: readonly DeletedRow[],
): Promise<void> {
  await trx
    .insertInto('deletion_records')
    .values(
      rows.map((row) => ({
        at: now,
        rule,
        kind,
        subject_id: row.subjectId,
        match_id: row.matchId,
        doc_key: null,
        sha256: row.sha256,
      })),
    )
    .execute();
}

/** The one audit entry of a batch: the rule and how many of what it deleted. */
export async function auditDeletedBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  rule: RetentionRuleName,
  deleted: string,
): Promise<void> {
  await audit.record(
    {
      actor: RETENTION_ACTOR,
      action: 'retention.delete',
      subject: RETENTION_RULE_LABELS[rule],
      newValue: deleted,
    },
    trx,
  );
}

/**
 * Deletes up to `limit` problem reports older than the period in one transaction, with a deletion record
 * of each (the SHA-256 of its text) and one audit entry; a report naming a held match stays.
 */
export async function deleteSupportReportBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  const rows = await trx
    .selectFrom('support_reports')
    .select(['id', 'match_id', sql<string>`encode(sha256(convert_to(body, 'UTF8')), 'hex')`.as('sha256')])
    .where('created_at', '<', dueBefore(now, period))
    .where(sql<boolean>`(match_id is null or match_id not in ${heldMatches})`)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  await recordDeletedRows(
    trx,
    now,
    'support_reports',
    'support_report',
    rows.map((row) => ({ subjectId: String(row.id), matchId: row.match_id, sha256: row.sha256 })),
  );
  await trx
    .deleteFrom('support_reports')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  await auditDeletedBatch(
    trx,
    audit,
    'support_reports',
    `${rows.length} ${rows.length === 1 ? 'Problemmeldung' : 'Problemmeldungen'}`,
  );
  return rows.length;
}

/**
 * Deletes up to `limit` delivered mails of the outbox older than the period; mail still waiting to go out
 * stays, and so does mail about an envelope of a held match.
 */
export async function deleteSentMailBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  const rows = await trx
    .selectFrom('outgoing_mail as m')
    .select([
      'm.id',
      sql<string>`encode(sha256(convert_to(m.subject || m.body, 'UTF8')), 'hex')`.as('sha256'),
    ])
    .where('m.sent_at', 'is not', null)
    .where('m.sent_at', '<', dueBefore(now, period))
    .where(sql<boolean>`not ${mailOfHeldMatch}`)
    .orderBy('m.id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  await recordDeletedRows(
    trx,
    now,
    'mails',
    'mail',
    rows.map((row) => ({ subjectId: String(row.id), matchId: null, sha256: row.sha256 })),
  );
  await trx
    .deleteFrom('outgoing_mail')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  await auditDeletedBatch(
    trx,
    audit,
    'mails',
    `${rows.length} ${rows.length === 1 ? 'Mail' : 'Mails'} aus dem Ausgang`,
  );
  return rows.length;
}
