import { type Kysely, sql } from 'kysely';

/**
 * `lapsed`: a draft or an expired envelope whose document a retention rule deleted has ended. Before,
 * such an envelope stayed `created` or `sent`, so it counted as running: a person named in it could not
 * be erased, and it could not be voided either, its document being gone. The envelopes already in that
 * state lapse now, each with a history entry naming the rule that deleted its files (the labels are
 * those of this version), as the deletion run records it from now on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table envelopes drop constraint if exists envelopes_status_check`.execute(db);
  await sql`alter table envelopes add constraint envelopes_status_check
    check (status in ('created', 'sent', 'completed', 'declined', 'voided', 'failed', 'lapsed'))`.execute(db);
  const left = sql`status in ('created', 'sent') and files_deleted_at is not null`;
  await sql`insert into envelope_events (envelope_id, type, actor, detail, at)
    select id, 'lapsed', 'system:aufbewahrung',
      'Regel „' || case files_deleted_rule
        when 'envelope_drafts' then 'Nie versendete Umschlag-Entwürfe'
        when 'ended_envelopes' then 'Abgelehnte, verworfene oder fehlgeschlagene Umschläge'
        else coalesce(files_deleted_rule, 'Aufbewahrung') end || '“',
      files_deleted_at
    from envelopes where ${left}`.execute(db);
  await sql`update approval_requests set status = 'void', void_reason = 'Umschlag verfallen',
      send_state = case when send_state = 'pending' then 'failed' else send_state end, send_due_at = null
    where (status = 'open' or (status = 'approved' and send_state = 'pending'))
      and envelope_id in (select id from envelopes where ${left})`.execute(db);
  await sql`update envelopes set status = 'lapsed', updated_at = files_deleted_at where ${left}`.execute(db);
}
