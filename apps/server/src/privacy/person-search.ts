import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PERSON_SOURCES, type PersonHit, type PersonSource } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { containing } from '../shared/text-match.js';
import { CANDIDATE_NAME, matchNaming, normalized } from './match-person.js';
import { searchContracts } from './person-search-contracts.js';
import { type Capped, searchApprovalsAndWebhooks } from './person-search-records.js';

/**
 * Per table at most, as the search shows them: a name common enough to exceed it is narrowed by its
 * e-mail address, and the answer says where it was cut. Export and erase go much further.
 */
export const SEARCH_LIMIT = 200;
export const REQUEST_LIMIT = 10_000;

/** Which fields of a JSON record name the person: „Feld vorname“. */
function fieldsNaming(record: unknown, needle: string, path = ''): string[] {
  if (record === null || record === undefined) return [];
  if (typeof record !== 'object') return String(record).toLowerCase().includes(needle) ? [path || '–'] : [];
  return Object.entries(record as Record<string, unknown>).flatMap(([key, value]) =>
    fieldsNaming(value, needle, path ? `${path}.${key}` : key),
  );
}

/**
 * Everywhere a person (an e-mail address or a name, any part of it, case-insensitive) is named: the
 * built-in matches, the documents' data and the deal's values they were made with, envelope recipients,
 * senders and events (signers' typed names included), the mail outbox and the mail folder, the staff list
 * and access requests, problem reports, approvals and webhook events, the running contracts' records and
 * events with the calendar links and reminder settings, and the audit log. Each hit says where it is.
 */
export class PersonSearch {
  constructor(
    private readonly db: Db,
    private readonly mailDirectory?: string,
  ) {}

  /** Every hit for the query and, for an e-mail address, for the names it goes by here. */
  async search(query: string): Promise<PersonHit[]> {
    return (await this.find(query)).hits;
  }

  /**
   * The search a request about a person makes — search, export and erase alike: documents and matches
   * name a person by name rather than address, so an e-mail address is widened to the names it goes by
   * as a recipient and in the staff list. Each hit once.
   */
  async find(
    query: string,
    limit = SEARCH_LIMIT,
  ): Promise<{ hits: PersonHit[]; names: string[]; truncated: PersonSource[] }> {
    const names = await this.namesOf(query);
    const seen = new Set<string>();
    const hits: PersonHit[] = [];
    const cut = new Set<PersonSource>();
    for (const term of [query, ...names]) {
      for (const hit of await this.searchTerm(term, limit, cut)) {
        const key = `${hit.source}\u0000${hit.id}\u0000${hit.where}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push(hit);
      }
    }
    return { hits, names, truncated: PERSON_SOURCES.filter((source) => cut.has(source)) };
  }

  /** The names an e-mail address goes by here (normalised, at least 3 characters); none for a name. */
  async namesOf(query: string): Promise<string[]> {
    const email = normalized(query);
    if (!email.includes('@')) return [];
    const rows = await this.db
      .selectFrom('envelope_recipients')
      .select('name')
      .where(sql<boolean>`lower(email) = ${email}`)
      .union(this.db.selectFrom('users').select('name').where(sql<boolean>`lower(email) = ${email}`))
      .execute();
    return [
      ...new Set(rows.map((r) => normalized(r.name)).filter((name) => name.length >= 3 && name !== email)),
    ];
  }

  private async searchTerm(query: string, limit: number, cut: Set<PersonSource>): Promise<PersonHit[]> {
    const like = containing(query);
    const needle = query.toLowerCase();
    const { db } = this;
    const hits: PersonHit[] = [];
    const hit = (h: PersonHit) => hits.push(h);
    const capped: Capped = <T>(source: PersonSource, rows: T[]): T[] => {
      if (rows.length <= limit) return rows;
      cut.add(source);
      return rows.slice(0, limit);
    };

    for (const row of capped(
      'match',
      await db
        .selectFrom('matches')
        .select(['match_id', 'record'])
        .where(matchNaming(normalized(query)))
        .limit(limit + 1)
        .execute(),
    )) {
      const fields = fieldsNaming(row.record, needle);
      for (const field of fields) {
        hit({
          source: 'match',
          id: row.match_id,
          matchId: row.match_id,
          where: `Feld ${field}`,
          value: valueAt(row.record, field),
        });
      }
      const candidate = [row.record.candidateFirstName, row.record.candidateLastName]
        .filter(Boolean)
        .join(' ');
      if (fields.length === 0 && normalized(candidate).includes(normalized(query))) {
        hit({
          source: 'match',
          id: row.match_id,
          matchId: row.match_id,
          where: `Felder ${CANDIDATE_NAME}`,
          value: candidate,
        });
      }
    }
    for (const row of capped(
      'document',
      await db
        .selectFrom('documents')
        .select(['id', 'match_id', 'file_name', 'doc_key', 'data', 'terms', 'created_by'])
        .where((eb) =>
          eb.or([
            sql<boolean>`data::text ilike ${like}`,
            sql<boolean>`coalesce(terms::text, '') ilike ${like}`,
            sql<boolean>`${termsCandidateName} ilike ${like}`,
            eb('created_by', 'ilike', like),
            eb('file_name', 'ilike', like),
          ]),
        )
        .limit(limit + 1)
        .execute(),
    )) {
      const fields = fieldsNaming(row.data, needle);
      if (row.created_by.toLowerCase().includes(needle)) fields.push('erstellt von');
      if (row.file_name.toLowerCase().includes(needle)) fields.push('Dateiname');
      for (const term of termsNaming(row.terms, needle)) {
        hit({
          source: 'document',
          id: row.id,
          matchId: row.match_id,
          where: `${row.file_name} (${row.doc_key}) · ${term.where}`,
          value: term.value,
        });
      }
      for (const field of fields) {
        hit({
          source: 'document',
          id: row.id,
          matchId: row.match_id,
          where: `${row.file_name} (${row.doc_key}) · ${field}`,
          value:
            field === 'erstellt von'
              ? row.created_by
              : field === 'Dateiname'
                ? row.file_name
                : valueAt(row.data, field),
        });
      }
    }
    for (const row of capped(
      'recipient',
      await db
        .selectFrom('envelope_recipients as r')
        .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
        .select([
          'r.id',
          'r.envelope_id',
          'r.role',
          'r.name',
          'r.email',
          'r.typed_name',
          'r.signed_ip',
          'e.match_id',
          'e.status',
        ])
        .where((eb) =>
          eb.or([
            eb('r.name', 'ilike', like),
            eb('r.email', 'ilike', like),
            eb('r.typed_name', 'ilike', like),
          ]),
        )
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'recipient',
        id: row.id,
        matchId: row.match_id,
        where: `Umschlag ${row.envelope_id} · Rolle ${row.role} · Status ${row.status}${row.signed_ip ? ' · mit IP-Adresse' : ''}`,
        value: [row.name, row.email, row.typed_name && `unterschrieben als ${row.typed_name}`]
          .filter(Boolean)
          .join(', '),
      });
    }
    for (const row of capped(
      'envelope',
      await db
        .selectFrom('envelopes')
        .select(['id', 'match_id', 'sender_name', 'sender_email', 'created_by'])
        .where((eb) =>
          eb.or([
            eb('sender_name', 'ilike', like),
            eb('sender_email', 'ilike', like),
            eb('created_by', 'ilike', like),
          ]),
        )
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'envelope',
        id: row.id,
        matchId: row.match_id,
        where: `Umschlag ${row.id} · Absender`,
        value: `${row.sender_name} <${row.sender_email}>`,
      });
    }
    for (const row of capped(
      'envelope_event',
      await db
        .selectFrom('envelope_events as v')
        .innerJoin('envelopes as e', 'e.id', 'v.envelope_id')
        .select(['v.id', 'v.envelope_id', 'v.type', 'v.actor', 'v.detail', 'v.ip', 'e.match_id'])
        .where((eb) => eb.or([eb('v.actor', 'ilike', like), eb('v.detail', 'ilike', like)]))
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'envelope_event',
        id: String(row.id),
        matchId: row.match_id,
        where: `Umschlag ${row.envelope_id} · Ereignis ${row.type}${row.ip ? ' · mit IP-Adresse' : ''}`,
        value: [row.actor, row.detail].filter(Boolean).join(' · '),
      });
    }
    for (const row of capped(
      'mail',
      await db
        .selectFrom('outgoing_mail')
        .select(['id', 'recipient', 'subject', 'reference', 'sent_at'])
        .where((eb) =>
          eb.or([
            eb('recipient', 'ilike', like),
            eb('subject', 'ilike', like),
            eb('body', 'ilike', like),
            eb('reply_to', 'ilike', like),
          ]),
        )
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'mail',
        id: String(row.id),
        matchId: null,
        where: `${row.sent_at ? 'gesendet' : 'wartet'}${row.reference ? ` · ${row.reference}` : ''}`,
        value: `${row.recipient ?? 'Support'}: ${row.subject}`,
      });
    }
    for (const name of capped('mail_file', await this.mailFilesNaming(needle, limit + 1))) {
      hit({ source: 'mail_file', id: name, matchId: null, where: 'Mail-Ordner', value: name });
    }
    for (const row of capped(
      'staff',
      await db
        .selectFrom('users')
        .select(['email', 'name', 'permission'])
        .where((eb) => eb.or([eb('email', 'ilike', like), eb('name', 'ilike', like)]))
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'staff',
        id: row.email,
        matchId: null,
        where: `Stufe ${row.permission ?? 'keine'}`,
        value: `${row.name} <${row.email}>`,
      });
    }
    for (const row of capped(
      'access_request',
      await db
        .selectFrom('access_requests')
        .select(['id', 'email', 'name', 'status'])
        .where((eb) => eb.or([eb('email', 'ilike', like), eb('name', 'ilike', like)]))
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'access_request',
        id: row.id,
        matchId: null,
        where: `Status ${row.status}`,
        value: `${row.name} <${row.email}>`,
      });
    }
    for (const row of capped(
      'support_report',
      await db
        .selectFrom('support_reports')
        .select(['id', 'reporter_email', 'reporter_name', 'subject', 'match_id'])
        .where((eb) =>
          eb.or([
            eb('reporter_email', 'ilike', like),
            eb('reporter_name', 'ilike', like),
            eb('body', 'ilike', like),
            eb('subject', 'ilike', like),
          ]),
        )
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'support_report',
        id: String(row.id),
        matchId: row.match_id,
        where: row.subject,
        value: `${row.reporter_name} <${row.reporter_email}>`,
      });
    }
    hits.push(...(await searchApprovalsAndWebhooks(db, like, limit, capped)));
    hits.push(...(await searchContracts(db, like, needle, limit, capped)));
    for (const row of capped(
      'audit',
      await db
        .selectFrom('audit_entries')
        .select(['id', 'action', 'actor', 'subject', 'old_value', 'new_value', 'at'])
        .where((eb) =>
          eb.or([
            eb('actor', 'ilike', like),
            eb('subject', 'ilike', like),
            eb('old_value', 'ilike', like),
            eb('new_value', 'ilike', like),
          ]),
        )
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute(),
    )) {
      hit({
        source: 'audit',
        id: String(row.id),
        matchId: null,
        where: `${row.action} am ${row.at.toISOString().slice(0, 10)}`,
        value: [row.actor, row.subject].join(' → '),
      });
    }
    return hits;
  }

  /** The .eml files of the mail folder that name the person. */
  async mailFilesNaming(needle: string, limit = REQUEST_LIMIT): Promise<string[]> {
    if (!this.mailDirectory) return [];
    let names: string[];
    try {
      names = (await readdir(this.mailDirectory)).filter((name) => name.endsWith('.eml')).sort();
    } catch {
      return [];
    }
    const found: string[] = [];
    for (const name of names) {
      const text = await readFile(join(this.mailDirectory, name), 'utf8').catch(() => '');
      if (text.toLowerCase().includes(needle)) found.push(name);
      if (found.length >= limit) break;
    }
    return found;
  }
}

/** SQL over `documents`: the candidate's name in the deal's values a document was made with, first and last joined. */
const termsCandidateName = sql<string>`concat_ws(' ', terms->>'candidateFirstName', terms->>'candidateLastName')`;

/**
 * Where the deal's values a document was made with (`terms`, read by its contract record) name the
 * person: each field that does, or both name fields where the joined candidate name does.
 */
function termsNaming(terms: unknown, needle: string): { where: string; value: string }[] {
  if (!terms || typeof terms !== 'object') return [];
  const fields = fieldsNaming(terms, needle);
  const found = fields.map((field) => ({
    where: `Vertragswerte · Feld ${field}`,
    value: valueAt(terms, field),
  }));
  const record = terms as Record<string, unknown>;
  const candidate = [record.candidateFirstName, record.candidateLastName].filter(Boolean).join(' ');
  if (fields.length === 0 && normalized(candidate).includes(normalized(needle))) {
    found.push({ where: `Vertragswerte · Felder ${CANDIDATE_NAME}`, value: candidate });
  }
  return found;
}

function valueAt(record: unknown, path: string): string {
  let value: unknown = record;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}
