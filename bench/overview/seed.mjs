import { sql } from 'kysely';

/** The legal view has them all; Berta Berater created every tenth block of twenty (1,000). */
export const ENVELOPES = 10_000;

/**
 * Fills a migrated database with ENVELOPES envelopes as years of use leave them: every status of the
 * overview (i % 20: 0 draft; 1–5 sent, of which 4–5 half signed; 19 sent with an expired link; 6–13
 * completed; 14–15 declined; 16–17 voided; 18 failed), two signers and a copy each, four events each,
 * 3,000 matches of 200 customers, ten creators. Plain SQL, so that 10,000 rows take seconds.
 */
export async function seedEnvelopes(db) {
  const documentId = '00000000-0000-4000-8000-000000000001';
  await sql`insert into documents (id, match_id, doc_key, form, created_by, status, file_name, data, data_sha256)
    values (${documentId}, 'PL-10001', 'de-wm-k-rv-1', 'docusign', 'legal@demo.local', 'ready',
      'Rahmenvertrag.docx', '{}', 'bench')`.execute(db);
  await sql`insert into envelopes (id, document_id, document_version, document_sha256, match_id, customer,
      doc_key, provider, external_id, status, subject, message, sender_name, sender_email, created_by,
      created_at, updated_at, completed_at)
    select md5('envelope' || i)::uuid, ${documentId}, 1, 'bench', 'PL-' || (20000 + i % 3000),
      'Kunde ' || (i % 200) || ' GmbH', 'de-wm-k-rv-1', 'builtin', md5('envelope' || i),
      case when i % 20 = 0 then 'created'
           when i % 20 between 1 and 5 or i % 20 = 19 then 'sent'
           when i % 20 between 6 and 13 then 'completed'
           when i % 20 in (14, 15) then 'declined'
           when i % 20 in (16, 17) then 'voided'
           else 'failed' end,
      'Bitte unterschreiben: Vertrag ' || i, '', 'Absender', 'absender@demo.local',
      case when (i / 20) % 10 = 0 then 'berater@demo.local' else 'kollege' || ((i / 20) % 10) || '@demo.local' end,
      now() - make_interval(mins => i * 7), now() - make_interval(mins => i * 5),
      case when i % 20 between 6 and 13 then now() - make_interval(mins => i * 5) end
    from generate_series(1, ${ENVELOPES}) as i`.execute(db);
  await sql`insert into envelope_recipients (envelope_id, position, role, name, email, routing_order, status,
      token_expires_at, signed_at)
    select md5('envelope' || i)::uuid, p,
      case p when 0 then 'Kunde' when 1 then 'Kunde2' else 'CC' end,
      'Person ' || i || '-' || p, 'signer' || i || '-' || p || '@kunde.example',
      case p when 2 then 2 else p + 1 end,
      case when p = 2 then 'copy'
           when i % 20 = 0 or i % 20 = 18 then 'waiting'
           when i % 20 between 6 and 13 then 'signed'
           when i % 20 in (14, 15) and p = 0 then 'declined'
           when i % 20 in (14, 15, 16, 17) then 'waiting'
           when i % 20 in (4, 5) and p = 0 then 'signed'
           when i % 20 in (4, 5) then 'sent'
           when p = 0 then 'sent'
           else 'waiting' end,
      case when p = 2 or i % 20 = 0 then null
           when i % 20 = 19 then now() - interval '1 day'
           else now() + interval '7 days' end,
      case when i % 20 between 6 and 13 or (i % 20 in (4, 5) and p = 0) then now() - interval '1 day' end
    from generate_series(1, ${ENVELOPES}) as i, generate_series(0, 2) as p`.execute(db);
  await sql`insert into envelope_events (envelope_id, type, actor, at)
    select md5('envelope' || i)::uuid, (array['created', 'sent', 'opened', 'signed'])[n], 'absender@demo.local',
      now() - make_interval(mins => i * 5 + (4 - n))
    from generate_series(1, ${ENVELOPES}) as i, generate_series(1, 4) as n`.execute(db);
  await sql`analyze`.execute(db);
}
