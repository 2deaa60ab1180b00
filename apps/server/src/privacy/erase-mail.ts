import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RetainedItem } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { containing } from '../shared/text-match.js';
import { HOLD_RULE } from './erase-documents.js';
import { namesAnyMatch } from './mail-folder.js';
import { mailOfHeldMatch } from './record-deletion.js';

/**
 * The outbox's mails to or naming the person go, but those about an envelope of a held match, which are
 * listed under the hold. Returns how many went.
 */
export async function eraseOutgoingMail(
  trx: Kysely<Database>,
  email: string | null,
  needle: string,
  retained: RetainedItem[],
  /** Only mail about envelopes of these matches; absent: all. */
  scope?: ReadonlySet<string>,
): Promise<number> {
  const about = scope
    ? sql<boolean>`exists (select 1 from envelopes e where m.reference = 'envelope:' || e.id::text
        and e.match_id in (${sql.join([...scope, ''])}))`
    : sql<boolean>`true`;
  const naming = sql<boolean>`(${about} and (${sql.join(
    [
      ...(email ? [sql<boolean>`lower(m.recipient) = ${email}`] : []),
      sql<boolean>`m.body ilike ${containing(needle)}`,
      sql<boolean>`m.subject ilike ${containing(needle)}`,
    ],
    sql` or `,
  )}))`;
  const kept = await trx
    .selectFrom('outgoing_mail as m')
    .select([
      'm.id',
      'm.subject',
      sql<
        string | null
      >`(select e.match_id from envelopes e where m.reference = 'envelope:' || e.id::text)`.as('match_id'),
    ])
    .where(naming)
    .where(mailOfHeldMatch)
    .orderBy('m.id')
    .execute();
  for (const mail of kept) {
    retained.push({
      what: `Mail „${mail.subject}“ im Ausgang`,
      id: String(mail.id),
      matchId: mail.match_id,
      rule: HOLD_RULE,
      until: null,
    });
  }
  const deleted = await trx
    .deleteFrom('outgoing_mail as m')
    .where(naming)
    .where(sql<boolean>`not ${mailOfHeldMatch}`)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/**
 * Of the mail folder's files that name the person, those naming a held match stay and are listed; the
 * others are returned to be deleted once the erase is committed.
 */
export async function sortMailFiles(
  directory: string,
  names: readonly string[],
  held: ReadonlySet<string>,
  retained: RetainedItem[],
  /** Only files naming one of these matches; absent: all. */
  scope?: ReadonlySet<string>,
): Promise<string[]> {
  const toDelete: string[] = [];
  for (const name of names) {
    const text = await readFile(join(directory, name), 'utf8').catch(() => undefined);
    if (text === undefined || (scope && !namesAnyMatch(text, scope))) continue;
    const matchId = [...held].find((id) => namesAnyMatch(text, [id]));
    if (matchId) {
      retained.push({ what: `Mail ${name} im Mail-Ordner`, id: name, matchId, rule: HOLD_RULE, until: null });
    } else {
      toDelete.push(name);
    }
  }
  return toDelete;
}

/** Deletes the files; one already gone counts as not deleted. */
export async function deleteMailFiles(directory: string, names: readonly string[]): Promise<number> {
  let files = 0;
  for (const name of names) {
    if (
      await unlink(join(directory, name)).then(
        () => true,
        () => false,
      )
    )
      files++;
  }
  return files;
}
