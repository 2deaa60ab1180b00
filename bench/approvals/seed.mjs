import { sql } from 'kysely';
import { ENVELOPES, seedEnvelopes } from '../overview/seed.mjs';

/** One request per envelope of the overview's seed: 10,000. */
export const REQUESTS = ENVELOPES;

const RULES = {
  margin: { enabled: true, thresholds: { wm: 15, we: 15, wp: 15 } },
  editedText: true,
  documentTypes: [],
  approvers: { order: ['leaders', 'legal'], escalationWorkingDays: 2 },
  deputies: [],
};

/**
 * The overview's 10,000 envelopes, each with an approval request as years of use leave them: every
 * fourth open (the envelope a draft then), the others decided (approved and sent, declined, void), with
 * their decisions; Berta Berater asked for every tenth block of twenty. Plain SQL, so that it takes seconds.
 */
export async function seedApprovals(db) {
  await seedEnvelopes(db);
  const rules = JSON.stringify(RULES);
  const reasons = JSON.stringify([
    { kind: 'margin', channel: 'remote', company: 'wm', threshold: 15, percent: 12.4, problem: null },
  ]);
  await sql`insert into approval_requests (id, envelope_id, document_id, document_version, document_sha256,
      match_id, doc_key, file_name, customer, requested_by, requested_by_name, requested_at, reasons, rules,
      escalates_at, send_request, status, void_reason, send_state, sent_at)
    select md5('approval' || i)::uuid, md5('envelope' || i)::uuid, '00000000-0000-4000-8000-000000000001', 1,
      'bench', 'PL-' || (20000 + i % 3000), 'de-wm-k-rv-1', 'Rahmenvertrag ' || i || '.docx',
      'Kunde ' || (i % 200) || ' GmbH',
      case when (i / 20) % 10 = 0 then 'berater@demo.local' else 'kollege' || ((i / 20) % 10) || '@demo.local' end,
      'Berater ' || ((i / 20) % 10), now() - make_interval(mins => i * 7), ${reasons}::jsonb, ${rules}::jsonb,
      now() - make_interval(mins => i * 7) + interval '2 days', '{}'::jsonb,
      case i % 4 when 0 then 'open' when 1 then 'approved' when 2 then 'declined' else 'void' end,
      case when i % 4 = 3 then 'Dokument nach der Anfrage geändert' end,
      case when i % 4 = 1 then 'done' end,
      case when i % 4 = 1 then now() - make_interval(mins => i * 6) end
    from generate_series(1, ${REQUESTS}) as i`.execute(db);
  await sql`insert into approval_decisions (request_id, decision, decided_by, decided_by_name, decided_at, comment)
    select md5('approval' || i)::uuid, case i % 4 when 1 then 'approved' else 'declined' end,
      'leitung@demo.local', 'Lea Leitung', now() - make_interval(mins => i * 6),
      case when i % 4 = 2 then 'Marge zu dünn' end
    from generate_series(1, ${REQUESTS}) as i where i % 4 in (1, 2)`.execute(db);
  await sql`analyze`.execute(db);
}
