import type { MatchFields } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { containing } from '../shared/text-match.js';

/**
 * The candidate's name as the match shows it („Projektpartner“): the CRM keeps first and last name in two
 * fields, so a search for the whole name would find neither of them alone.
 */
export const CANDIDATE_NAME = 'candidateFirstName candidateLastName';

/** SQL: the stored match's candidate name, first and last joined as on `/start`. */
const candidateNameSql: RawBuilder<string> = sql<string>`concat_ws(' ', record->>'candidateFirstName', record->>'candidateLastName')`;

/** A person's name or address as compared here: lower case, runs of white space as one space. */
export function normalized(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

function candidateName(record: MatchFields): string {
  return normalized([record.candidateFirstName, record.candidateLastName].filter(Boolean).join(' '));
}

/** SQL condition: a stored match names the person somewhere (any field, or the joined candidate name). */
export function matchNaming(needle: string): RawBuilder<boolean> {
  const like = containing(needle);
  return sql<boolean>`(record::text ilike ${like} or ${candidateNameSql} ilike ${like})`;
}

/**
 * The fields of a stored match that hold the person: every field whose value names them, both name
 * fields where the joined candidate name does, and — where the candidate's firm bears their name, as a
 * sole trader's does — the firm's address, which is then theirs too.
 */
function personFieldsOf(record: MatchFields, needle: string): string[] {
  const fields = new Set<string>();
  for (const [field, value] of Object.entries(record)) {
    if (value !== null && value !== undefined && normalized(String(value)).includes(needle))
      fields.add(field);
  }
  if (candidateName(record).includes(needle)) {
    fields.add('candidateFirstName');
    fields.add('candidateLastName');
  }
  if (fields.has('candidateFirstName') && fields.has('ppGesellschaft') && record.ppAdresse) {
    fields.add('ppAdresse');
  }
  return [...fields].filter((field) => record[field as keyof MatchFields] !== undefined);
}

/**
 * Pseudonymises the person in the built-in match store: each field that holds them reads „gelöscht am …“,
 * so the match and its documents' history stay readable without the person. Held matches are left.
 * Returns the matches changed and the held ones left as they are.
 */
export async function pseudonymiseMatches(
  trx: Kysely<Database>,
  needle: string,
  label: string,
  held: ReadonlySet<string>,
  /** Only these matches (a hold lifted since the erase); absent: every match. */
  scope?: ReadonlySet<string>,
): Promise<{ changed: string[]; kept: string[] }> {
  if (scope?.size === 0) return { changed: [], kept: [] };
  const rows = await trx
    .selectFrom('matches')
    .select(['match_id', 'record'])
    .where(matchNaming(needle))
    .$if(scope !== undefined, (q) => q.where('match_id', 'in', [...(scope ?? [])]))
    .forUpdate()
    .execute();
  const changed: string[] = [];
  const kept: string[] = [];
  for (const row of rows) {
    const fields = personFieldsOf(row.record, needle);
    if (fields.length === 0) continue;
    if (held.has(row.match_id)) {
      kept.push(row.match_id);
      continue;
    }
    const record: Record<string, unknown> = { ...row.record };
    for (const field of fields) record[field] = label;
    await trx
      .updateTable('matches')
      .set({ record: JSON.stringify(record), updated_at: new Date() })
      .where('match_id', '=', row.match_id)
      .execute();
    changed.push(row.match_id);
  }
  return { changed, kept };
}
