import { sql } from 'kysely';

/** Running contracts as years of use leave them. */
export const CONTRACTS = 100_000;

/**
 * Fills a migrated database with CONTRACTS contract records: 2,000 Rahmenverträge (one per customer
 * and company), the rest Einzelaufträge under them, every 50th without one, every 25th terminated;
 * ends spread over the past year and the next three, a notice deadline four weeks before each end,
 * every 40th open-ended and every 33rd with a text the rules could not read. 20 consultants, Berta
 * Berater the consultant of every twentieth deal (5,000). Plain SQL, so that the records take seconds.
 */
export async function seedContracts(db) {
  const documentId = '00000000-0000-4000-8000-000000000002';
  await sql`insert into documents (id, match_id, doc_key, form, created_by, status, file_name, data, data_sha256)
    values (${documentId}, 'PL-10001', 'de-wm-k-ev-1', 'docusign', 'legal@demo.local', 'ready',
      'Einzelauftrag.docx', '{}', 'bench')`.execute(db);
  await sql`insert into contract_records (id, source_kind, document_id, document_version, match_id, doc_key,
      kind, company, partner_type, language, counterparty, customer, consultant, parties, terms_source,
      start_date, end_date, notice_text, notice_rule, notice_rule_source, notice_problem, last_notice_day,
      signed_at)
    select md5('contract' || i)::uuid, 'signed_elsewhere', ${documentId}, i, 'PL-' || (30000 + i),
      case when i <= 2000 then 'de-wm-k-rv-1' else 'de-wm-k-ev-1' end,
      case when i <= 2000 then 'rahmenvertrag' else 'einzelauftrag' end,
      (array['wm', 'we', 'wp'])[1 + i % 3], 'k', 'de',
      'Kunde ' || (i % 2000) || ' AG', 'Kunde ' || (i % 2000) || ' AG',
      case when i % 20 = 0 then 'Berta Berater' else 'Berater ' || (i % 20) end,
      '[]', 'document',
      to_char(date '2025-01-01' + (i % 700), 'YYYY-MM-DD'),
      case when i % 40 = 0 then null else to_char(date '2025-12-01' + (i % 1200), 'YYYY-MM-DD') end,
      case when i % 33 = 0 then 'nach Vereinbarung' else '4 Wochen' end,
      case when i % 33 = 0 then null else '{"amount":4,"unit":"weeks"}'::jsonb end,
      case when i % 33 = 0 then 'unreadable' else 'read' end,
      case when i % 33 = 0 then 'nicht lesbar' end,
      case when i % 40 = 0 or i % 33 = 0 then null
           else to_char(date '2025-12-01' + (i % 1200) - 28, 'YYYY-MM-DD') end,
      timestamptz '2025-01-01' + make_interval(mins => i * 5)
    from generate_series(1, ${CONTRACTS}) as i`.execute(db);
  // Einzelaufträge under the Rahmenvertrag of their customer (record i % 2000, or 2000 for 0), every
  // 50th without; every 25th terminated (pointing at itself: the list reads only that it is).
  await sql`update contract_records c set parent_id = md5('contract' || (case when n % 2000 = 0 then 2000 else n % 2000 end))::uuid,
      relation = 'under'
    from (select id, (regexp_replace(match_id, '^PL-', '')::int - 30000) as n from contract_records) s
    where c.id = s.id and s.n > 2000 and s.n % 50 <> 0`.execute(db);
  await sql`update contract_records set terminated_by = id
    where kind = 'einzelauftrag' and (regexp_replace(match_id, '^PL-', '')::int - 30000) % 25 = 0`.execute(
    db,
  );
  await sql`analyze`.execute(db);
}
