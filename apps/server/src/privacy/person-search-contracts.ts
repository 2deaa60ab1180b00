import type { PersonHit } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Capped } from './person-search-records.js';

/** The fields of a contract record that can name a person, as the search answer calls them. */
const RECORD_FIELDS = [
  ['counterparty', 'Vertragspartner'],
  ['customer', 'Kunde'],
  ['consultant', 'Berater'],
  ['parties', 'Parteien'],
  ['signed_by', 'unterschrieben von'],
] as const;

/** SQL over `contract_records as c`: each field that may name a person, white space runs as one space. */
const recordField = (column: (typeof RECORD_FIELDS)[number][0]) =>
  column === 'parties'
    ? sql<string>`regexp_replace(c.parties::text, '[[:space:]]+', ' ', 'g')`
    : sql<string>`regexp_replace(coalesce(${sql.ref(`c.${column}`)}, ''), '[[:space:]]+', ' ', 'g')`;

/**
 * The running contracts' records that name a person: a record's counterparty (a project partner's firm
 * often bears their name), customer, consultant, parties and who signed a document signed elsewhere; the
 * events of a record (who did what, and texts such as whom a reminder went to); a user's calendar
 * subscribe link (by address); who last changed the reminders' lead times.
 */
export async function searchContracts(
  db: Db,
  like: string,
  needle: string,
  limit: number,
  capped: Capped,
): Promise<PersonHit[]> {
  const hits: PersonHit[] = [];
  for (const row of capped(
    'contract_record',
    await db
      .selectFrom('contract_records as c')
      .select([
        'c.id',
        'c.match_id',
        'c.kind',
        'c.counterparty',
        'c.customer',
        'c.consultant',
        'c.parties',
        'c.signed_by',
        sql<boolean>`c.signed_pdf is not null`.as('has_pdf'),
      ])
      .where(
        sql<boolean>`(${sql.join(
          RECORD_FIELDS.map(([column]) => sql<boolean>`${recordField(column)} ilike ${like}`),
          sql` or `,
        )})`,
      )
      .orderBy('c.signed_at')
      .orderBy('c.id')
      .limit(limit + 1)
      .execute(),
  )) {
    const named = RECORD_FIELDS.flatMap(([column, label]) => {
      const value =
        column === 'parties'
          ? row.parties
              .map((party) => party.name)
              .filter((name) => spaced(name).includes(needle))
              .join(', ')
          : spaced(row[column] ?? '').includes(needle)
            ? (row[column] ?? '')
            : '';
      return value ? [{ label, value }] : [];
    });
    hits.push({
      source: 'contract_record',
      id: row.id,
      matchId: row.match_id,
      where: `Vertrag ${row.id} (${row.kind}) · ${named.map((n) => n.label).join(', ') || 'Felder'}${row.has_pdf ? ' · mit unterschriebenem PDF' : ''}`,
      value: [...new Set(named.map((n) => n.value))].join(' · '),
    });
  }
  for (const row of capped(
    'contract_event',
    await db
      .selectFrom('contract_events as v')
      .innerJoin('contract_records as c', 'c.id', 'v.contract_id')
      .select(['v.id', 'v.contract_id', 'v.type', 'v.actor', 'v.detail', 'c.match_id'])
      .where((eb) => eb.or([eb('v.actor', 'ilike', like), eb('v.detail', 'ilike', like)]))
      .orderBy('v.at')
      .orderBy('v.id')
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'contract_event',
      id: row.id,
      matchId: row.match_id,
      where: `Vertrag ${row.contract_id} · Ereignis ${row.type}`,
      value: [row.actor, row.detail].filter(Boolean).join(' · '),
    });
  }
  for (const row of capped(
    'calendar_feed',
    await db
      .selectFrom('calendar_feeds')
      .select(['user_email', 'created_at'])
      .where('user_email', 'ilike', like)
      .orderBy('user_email')
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'calendar_feed',
      id: row.user_email,
      matchId: null,
      where: `Link zum Abonnieren, erstellt am ${row.created_at.toISOString().slice(0, 10)}`,
      value: row.user_email,
    });
  }
  for (const row of capped(
    'reminder_setting',
    await db
      .selectFrom('contract_reminder_settings')
      .select(['company', 'changed_by', 'changed_at'])
      .where('changed_by', 'ilike', like)
      .orderBy('company')
      .limit(limit + 1)
      .execute(),
  )) {
    hits.push({
      source: 'reminder_setting',
      id: row.company,
      matchId: null,
      where: `Vorlaufzeiten der Gesellschaft ${row.company}, geändert am ${row.changed_at.toISOString().slice(0, 10)}`,
      value: row.changed_by,
    });
  }
  return hits;
}

/** A value as the search compares it: lower case, runs of white space as one space. */
function spaced(value: string): string {
  return value.replace(/\s+/g, ' ').toLowerCase();
}
