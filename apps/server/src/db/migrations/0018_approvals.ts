import { type Kysely, sql } from 'kysely';

/**
 * Freigabe (approvals). `approval_rules` holds the one set of rules (row `id = 1`) with a version for
 * optimistic locking; a new database starts with the defaults below (a frozen copy of
 * `DEFAULT_APPROVAL_RULES` of the domain: margin below 15 % for every company, edited text on, no
 * document type, leaders then legal after two working days, no deputies).
 *
 * `approval_requests`: one request for one version of one document (and its envelope), with the reasons
 * and the rules it was made under (`rules`, a snapshot: a later rule change does not apply to it), the
 * sender's send request (`send_request`) and, once approved, the pending send in the requester's name
 * (`send_state` `pending` → `done` | `failed`, leased through `send_due_at` like the mail outbox). At
 * most one open request per envelope. `escalation_mailed_at`: when the next group in turn was told that it
 * may decide too.
 *
 * `approval_decisions`: the one decision of a request (primary key: two approvers at once cannot both
 * decide), written in the same transaction as the request's status and its pending send.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('approval_rules')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('rules', 'jsonb', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'timestamptz')
    .execute();
  const defaults = {
    margin: { enabled: true, thresholds: { wm: 15, we: 15, wp: 15 } },
    editedText: true,
    documentTypes: [],
    approvers: { order: ['leaders', 'legal'], escalationWorkingDays: 2 },
    deputies: [],
  };
  await sql`insert into approval_rules (id, rules) values (1, ${JSON.stringify(defaults)}::jsonb)`.execute(
    db,
  );

  await db.schema
    .createTable('approval_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('envelope_id', 'uuid', (c) => c.references('envelopes.id'))
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('documents.id'))
    .addColumn('document_version', 'integer', (c) => c.notNull())
    .addColumn('document_sha256', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_name', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reasons', 'jsonb', (c) => c.notNull())
    .addColumn('rules', 'jsonb', (c) => c.notNull())
    .addColumn('escalates_at', 'timestamptz')
    .addColumn('escalation_mailed_at', 'timestamptz')
    .addColumn('send_request', 'jsonb')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('open', 'approved', 'declined', 'void')`),
    )
    .addColumn('void_reason', 'text')
    .addColumn('send_state', 'text', (c) => c.check(sql`send_state in ('pending', 'done', 'failed')`))
    .addColumn('send_due_at', 'timestamptz')
    .addColumn('send_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('send_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('approval_requests_open_envelope')
    .unique()
    .on('approval_requests')
    .column('envelope_id')
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema
    .createIndex('approval_requests_status')
    .on('approval_requests')
    .columns(['status', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('approval_requests_envelope')
    .on('approval_requests')
    .columns(['envelope_id', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('approval_requests_send_due')
    .on('approval_requests')
    .column('send_due_at')
    .where(sql.ref('send_state'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('approval_decisions')
    .addColumn('request_id', 'uuid', (c) => c.primaryKey().references('approval_requests.id'))
    .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('approved', 'declined')`))
    .addColumn('decided_by', 'text', (c) => c.notNull())
    .addColumn('decided_by_name', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('comment', 'text')
    .execute();
}
