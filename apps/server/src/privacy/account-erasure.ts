import type { PersonHit, RetainedItem } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { HOLD_RULE } from './erase-documents.js';
import { heldMatches } from './legal-holds.js';

/**
 * What is keyed by a person's account address: problem reports (but those about a held match, listed
 * under the hold), the staff list with sessions and the
 * embedded provider's account, recent matches, access requests. Deleted by the address only, never by a
 * name, which two colleagues may share. Returns the counts per kind; an administrator named by
 * ADMIN_EMAILS stays in the staff list and is added to `retained`.
 */
export async function eraseAccount(
  trx: Kysely<Database>,
  email: string,
  configuredAdministrators: ReadonlySet<string>,
  retained: RetainedItem[],
): Promise<Record<string, number>> {
  const erased: Record<string, number> = {};
  const reports = await trx
    .deleteFrom('support_reports')
    .where(sql<boolean>`lower(reporter_email) = ${email}`)
    .where(sql<boolean>`(match_id is null or match_id not in ${heldMatches})`)
    .executeTakeFirst();
  erased.Problemmeldungen = Number(reports.numDeletedRows);
  for (const report of await trx
    .selectFrom('support_reports')
    .select(['id', 'subject', 'match_id'])
    .where(sql<boolean>`lower(reporter_email) = ${email}`)
    .orderBy('id')
    .execute()) {
    retained.push({
      what: `Problemmeldung „${report.subject}“`,
      id: String(report.id),
      matchId: report.match_id,
      rule: HOLD_RULE,
      until: null,
    });
  }
  if (configuredAdministrators.has(email)) {
    retained.push({
      what: 'Eintrag in der Mitarbeiterliste',
      id: email,
      matchId: null,
      rule: 'ADMIN_EMAILS',
      until: null,
    });
  } else {
    await trx.deleteFrom('sessions').where(sql<boolean>`lower(email) = ${email}`).execute();
    const staff = await trx
      .deleteFrom('users')
      .where(sql<boolean>`lower(email) = ${email}`)
      .executeTakeFirst();
    erased['Eintrag in der Mitarbeiterliste'] = Number(staff.numDeletedRows);
    await trx.deleteFrom('idp_accounts').where(sql<boolean>`lower(email) = ${email}`).execute();
  }
  await trx.deleteFrom('recent_matches').where(sql<boolean>`lower(email) = ${email}`).execute();
  const requests = await trx
    .deleteFrom('access_requests')
    .where(sql<boolean>`lower(email) = ${email}`)
    .executeTakeFirst();
  erased.Zugangsanfragen = Number(requests.numDeletedRows);
  return erased;
}

/** The person's problem reports about these matches, unless a hold keeps one: how many went. */
export async function eraseReportsAbout(
  trx: Kysely<Database>,
  email: string,
  matchIds: ReadonlySet<string>,
): Promise<number> {
  if (matchIds.size === 0) return 0;
  const reports = await trx
    .deleteFrom('support_reports')
    .where(sql<boolean>`lower(reporter_email) = ${email}`)
    .where('match_id', 'in', [...matchIds])
    .where(sql<boolean>`match_id not in ${heldMatches}`)
    .executeTakeFirst();
  return Number(reports.numDeletedRows);
}

const ACCOUNT_SOURCES: Partial<Record<PersonHit['source'], string>> = {
  staff: 'Eintrag in der Mitarbeiterliste',
  access_request: 'Zugangsanfrage',
  support_report: 'Problemmeldung',
};

/** By name: the account-keyed records the search found, listed to be erased by their address. */
export function accountHits(hits: readonly PersonHit[]): RetainedItem[] {
  return hits.flatMap((hit) => {
    const what = ACCOUNT_SOURCES[hit.source];
    return what
      ? [
          {
            what: `${what}: ${hit.value}`,
            id: hit.id,
            matchId: hit.matchId,
            rule: 'Nur über die E-Mail-Adresse zu löschen',
            until: null,
          },
        ]
      : [];
  });
}
