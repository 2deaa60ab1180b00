import { sql } from 'kysely';

/**
 * Fills a migrated database with `records` running contracts as years of use leave them, in plain
 * INSERT … SELECT generate_series statements so that 100,000 take seconds, not an hour:
 *
 * - a document and a completed envelope per record (generated over four years, sent after 0–3 days,
 *   completed after 1–30 more), with its `created`, `sent`, two `signed` and `completed` events, and the
 *   record itself with those instants (kinds and companies in turn, ends spread from two years back to three ahead, every
 *   twentieth terminated);
 * - a tenth as many envelopes still out for signature, their signers at every step;
 * - a twentieth as many declined ones, with one of 15 reasons;
 * - a tenth as many approval requests, nine in ten decided after 1–72 hours.
 */
export async function seedFigures(db, records) {
  const open = Math.round(records / 10);
  const declined = Math.round(records / 20);
  const approvals = Math.round(records / 10);
  const keys = sql`(array['de-wm-k-rv-1', 'de-wm-pp-ev', 'en-we-k-ev-2', 'de-we-pp-rv', 'de-wp-pp-ev'])`;
  const kinds = sql`(array['rahmenvertrag', 'einzelauftrag', 'einzelauftrag', 'rahmenvertrag', 'einzelauftrag'])`;
  const companies = sql`(array['wm', 'wm', 'we', 'we', 'wp'])`;
  const envelopes = records + open + declined;

  // Documents: one per envelope, made at one of `envelopes` points 20 minutes apart (four years for 100,000),
  // the points shuffled (i × 7919 mod n), so that open and declined envelopes are of every age too.
  const spread = Math.max(1, Math.round((4 * 365 * 24 * 60) / envelopes));
  await sql`insert into documents (id, match_id, doc_key, form, created_by, created_at, status, file_name, data, data_sha256)
    select md5('document' || i)::uuid, 'PL-' || (20000 + i % 5000), ${keys}[1 + i % 5], 'docusign', 'legal@demo.local',
      now() - make_interval(mins => ((i * 7919) % ${envelopes}::int) * ${spread}::int), 'ready', 'Vertrag.docx', '{}', 'bench'
    from generate_series(1, ${envelopes}::int) as i`.execute(db);
  await sql`insert into envelopes (id, document_id, document_version, document_sha256, match_id, customer, doc_key,
      provider, status, subject, message, sender_name, sender_email, created_by, created_at, updated_at, completed_at)
    select md5('envelope' || i)::uuid, md5('document' || i)::uuid, 1, 'bench', 'PL-' || (20000 + i % 5000),
      'Kunde ' || (i % 300) || ' GmbH', ${keys}[1 + i % 5], 'builtin',
      case when i <= ${records}::int then 'completed' when i <= ${records + open}::int then 'sent' else 'declined' end,
      'Vertrag ' || i, '', 'Absender', 'absender@demo.local', 'legal@demo.local',
      now() - make_interval(mins => ((i * 7919) % ${envelopes}::int) * ${spread}::int), now(),
      case when i <= ${records}::int then now() - make_interval(mins => ((i * 7919) % ${envelopes}::int) * ${spread}::int)
        + make_interval(days => i % 4 + 1 + i % 30, hours => i % 24) end
    from generate_series(1, ${envelopes}::int) as i`.execute(db);
  // Events: created, sent (after 0–3 days), then per status.
  await sql`insert into envelope_events (envelope_id, type, actor, detail, at)
    select md5('envelope' || i)::uuid, t.type, 'absender@demo.local',
      case when t.type = 'declined' then (array['Preis zu hoch', 'Falsches Startdatum', 'Kein Bedarf mehr',
        'Stundensatz falsch', 'Falscher Ansprechpartner', 'Projekt verschoben', 'Budget gestrichen',
        'Vertragspartner falsch', 'Bitte per Post', 'Kündigungsfrist zu lang', 'Anderer Anbieter',
        'Doppelt versendet', 'Name falsch geschrieben', 'Rechtsabteilung prüft noch', 'Ohne Angabe'])[1 + (i * 7) % 15]
      end,
      now() - make_interval(mins => ((i * 7919) % ${envelopes}::int) * ${spread}::int) + make_interval(days => t.after_days)
    from generate_series(1, ${envelopes}::int) as i
    cross join lateral (values
      ('created', 0), ('sent', i % 4),
      (case when i <= ${records}::int then 'signed' when i > ${records + open}::int then 'declined' end, i % 4 + 1),
      (case when i <= ${records}::int then 'signed' end, i % 4 + 1 + i % 30),
      (case when i <= ${records}::int then 'completed' end, i % 4 + 1 + i % 30)
    ) as t(type, after_days)
    where t.type is not null`.execute(db);
  // Open envelopes: a customer (1), a second customer (2) and the countersignatory (3); i % 3 says how far.
  await sql`insert into envelope_recipients (envelope_id, position, role, name, email, routing_order, status)
    select md5('envelope' || i)::uuid, p, (array['Kunde', 'Kunde2', 'Firma'])[p], 'Person ' || i || '-' || p,
      'signer' || i || '-' || p || '@kunde.example', p,
      case when p - 1 < (i % 3) then 'signed' when p - 1 = (i % 3) then 'sent' else 'waiting' end
    from generate_series(${records + 1}::int, ${records + open}::int) as i, generate_series(1, 3) as p`.execute(
    db,
  );
  await sql`insert into contract_records (id, source_kind, envelope_id, document_id, document_version, match_id,
      doc_key, kind, company, partner_type, language, counterparty, customer, consultant, parties, terms_source,
      end_date, notice_rule_source, generated_at, first_sent_at, signed_at, terminated_by)
    select md5('record' || i)::uuid, 'envelope', md5('envelope' || i)::uuid, md5('document' || i)::uuid, 1,
      'PL-' || (20000 + i % 5000), ${keys}[1 + i % 5], ${kinds}[1 + i % 5], ${companies}[1 + i % 5], 'k', 'de',
      'Kunde ' || (i % 300) || ' GmbH', 'Kunde ' || (i % 300) || ' GmbH', 'Berater ' || (i % 40), '[]', 'document',
      to_char(current_date - 730 + (i * 7) % 1826, 'YYYY-MM-DD'), 'missing', made, made + make_interval(days => i % 4),
      made + make_interval(days => i % 4 + 1 + i % 30, hours => i % 24),
      case when i % 20 = 0 then md5('record' || i)::uuid end
    from generate_series(1, ${records}::int) as i,
      lateral (select now() - make_interval(mins => ((i * 7919) % ${envelopes}::int) * ${spread}::int) as made) as m`.execute(
    db,
  );
  await sql`insert into approval_requests (id, document_id, document_version, document_sha256, match_id, doc_key,
      file_name, requested_by, requested_by_name, requested_at, reasons, rules, status)
    select md5('approval' || i)::uuid, md5('document' || i)::uuid, 1, 'bench', 'PL-' || (20000 + i % 5000),
      ${keys}[1 + i % 5], 'Vertrag.docx', 'berater@demo.local', 'Berta Berater',
      now() - make_interval(mins => i * ${spread * 10}::int), '[]', '{}', case when i % 10 = 0 then 'open' else 'approved' end
    from generate_series(1, ${approvals}::int) as i`.execute(db);
  await sql`insert into approval_decisions (request_id, decision, decided_by, decided_by_name, decided_at)
    select md5('approval' || i)::uuid, 'approved', 'leitung@demo.local', 'Lars Leitung',
      now() - make_interval(mins => i * ${spread * 10}::int) + make_interval(hours => 1 + i % 72)
    from generate_series(1, ${approvals}::int) as i where i % 10 <> 0`.execute(db);
  await sql`analyze`.execute(db);
  return { envelopes, open, declined, approvals };
}
