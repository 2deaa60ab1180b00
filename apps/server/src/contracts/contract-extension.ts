import {
  type AgreementDataList,
  formatCalendarDate,
  formatGermanNumber,
  formatPrice,
} from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { calendarDateOfIso, noticeDeadline } from './contract-terms.js';

type Executor = Kysely<Database>;

/** What a signed extension changes on the contract it extends: the end, and what its form gave anew. */
export interface Extension {
  id: string;
  endDate: string | null;
  rateRemote?: number;
  rateOnsite?: number;
  hoursPerWeek?: number;
  actor: string;
}

/** The changes an extension's document states, read from the dataList it was generated with. */
export async function extensionOf(
  trx: Executor,
  record: { id: string; documentId: string; endDate: string | null; actor: string },
): Promise<Extension> {
  const document = await trx
    .selectFrom('documents')
    .select('data')
    .where('id', '=', record.documentId)
    .executeTakeFirst();
  const given = (document?.data ?? {}) as Partial<AgreementDataList>;
  return {
    id: record.id,
    endDate: record.endDate,
    rateRemote: given.neuerSatzRemote,
    rateOnsite: given.neuerSatzOnsite,
    hoursPerWeek: given.neueStundenProWoche,
    actor: record.actor,
  };
}

const day = (iso: string | null) => (iso ? formatCalendarDate(calendarDateOfIso(iso)) : 'offen');

/**
 * Moves the end (with its last notice day) and the changed rates of the contract an extension extends,
 * and notes it in that contract's history. The contract's row is locked first, so of two extensions
 * recorded at once by two replicas the one signed last decides, whichever commits last; an extension
 * signed before one already applied (recorded late) changes nothing but its own record.
 */
export async function extendContract(trx: Executor, contractId: string, extension: Extension): Promise<void> {
  const contract = await trx
    .selectFrom('contract_records')
    .select(['id', 'end_date', 'notice_rule'])
    .where('id', '=', contractId)
    .forUpdate()
    .executeTakeFirst();
  if (!contract) return;
  const laterExtension = await trx
    .selectFrom('contract_records as s')
    .innerJoin('contract_records as e', (join) => join.on('e.id', '=', extension.id))
    .select('s.id')
    .where('s.parent_id', '=', contractId)
    .where('s.kind', '=', 'verlaengerung')
    .where('s.id', '!=', extension.id)
    .where(sql<boolean>`(s.signed_at, s.id) > (e.signed_at, e.id)`)
    .executeTakeFirst();
  if (laterExtension) return;
  const changes: string[] = [];
  const text = (value: number | undefined) => (value === undefined ? undefined : String(value));
  if (extension.endDate)
    changes.push(`Verlängert bis ${day(extension.endDate)} (bisher ${day(contract.end_date)})`);
  if (extension.rateRemote !== undefined)
    changes.push(`Stundensatz remote ${formatPrice(extension.rateRemote)}`);
  if (extension.rateOnsite !== undefined)
    changes.push(`Stundensatz vor Ort ${formatPrice(extension.rateOnsite)}`);
  if (extension.hoursPerWeek !== undefined)
    changes.push(`${formatGermanNumber(extension.hoursPerWeek)} Stunden pro Woche`);
  if (changes.length === 0) return;
  await trx
    .updateTable('contract_records')
    .set({
      ...(extension.endDate
        ? {
            end_date: extension.endDate,
            last_notice_day: noticeDeadline(contract.notice_rule, extension.endDate),
          }
        : {}),
      ...(extension.rateRemote !== undefined ? { rate_remote: text(extension.rateRemote) } : {}),
      ...(extension.rateOnsite !== undefined ? { rate_onsite: text(extension.rateOnsite) } : {}),
      ...(extension.hoursPerWeek !== undefined ? { hours_per_week: text(extension.hoursPerWeek) } : {}),
    })
    .where('id', '=', contractId)
    .execute();
  await trx
    .insertInto('contract_events')
    .values({
      contract_id: contractId,
      type: 'extended',
      actor: extension.actor,
      detail: `${changes.join('; ')}. Verlängerung ${extension.id}`,
    })
    .execute();
}
