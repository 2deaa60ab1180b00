import { type Kysely, sql } from 'kysely';

/**
 * One outbox for every e-mail the product sends (support reports, signing invitations, completed
 * envelopes): a message is stored in the same transaction as what caused it and mailed afterwards,
 * so nothing is lost while SMTP is down. Reports still waiting in the old per-report queue move over
 * with the text they would have been sent with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outgoing_mail')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    /** Null: the support mailbox (SUPPORT_EMAIL at delivery time, so a changed address still applies). */
    .addColumn('recipient', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    /** [{ filename, contentType, content (base64) }] */
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    /** What caused it, for operators: `support_report:12`, `envelope:<uuid>`. */
    .addColumn('reference', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('outgoing_mail_pending')
    .on('outgoing_mail')
    .column('next_attempt_at')
    .where(sql.ref('sent_at'), 'is', null)
    .execute();

  await sql`
    insert into outgoing_mail (recipient, reply_to, subject, body, reference, created_at, attempts, last_error)
    select null, reporter_email,
           '[Vertragsgenerator] Problem gemeldet: ' || subject,
           concat_ws(E'\n',
             reporter_name || ' <' || reporter_email || '> hat ein Problem gemeldet.', '',
             'Betreff: ' || subject,
             'Match-ID: ' || coalesce(match_id, '–'),
             'Gemeldet am: ' || to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'Meldung Nr.: ' || id, '',
             body),
           'support_report:' || id, created_at, attempts, last_error
    from support_reports
    where mailed_at is null
  `.execute(db);
  await db.schema.dropIndex('support_reports_pending').execute();
  await db.schema
    .alterTable('support_reports')
    .dropColumn('mailed_at')
    .dropColumn('attempts')
    .dropColumn('next_attempt_at')
    .dropColumn('last_error')
    .execute();
}
