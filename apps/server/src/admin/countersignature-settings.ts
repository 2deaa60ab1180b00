import {
  COUNTERSIGNATURE_DEFAULTS,
  COUNTERSIGNATURE_FAMILIES,
  type CountersignatureSetting,
  FAMILY_TITLES,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { AuditLog } from './audit-log.js';
import { CountersignatureOrderSettings } from './countersignature-order.js';

type Family = CountersignatureSetting['family'];

const described = (allowed: boolean) => (allowed ? 'ohne Gegenzeichnung erlaubt' : 'Gegenzeichnung verlangt');

/**
 * The administrators' switch per document family „Ohne Gegenzeichnung senden erlaubt“ (/verwaltung):
 * whether an envelope may go out without the company's countersignatory, the seal then standing for
 * the company. A change and its audit entry are one transaction; a family never changed keeps
 * `COUNTERSIGNATURE_DEFAULTS`.
 */
export class CountersignatureSettings {
  /** Where the countersignatory signs, per template: the tab's other half. */
  readonly order: CountersignatureOrderSettings;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {
    this.order = new CountersignatureOrderSettings(db, audit);
  }

  async list(): Promise<CountersignatureSetting[]> {
    const rows = await this.db.selectFrom('countersignature_settings').selectAll().execute();
    return COUNTERSIGNATURE_FAMILIES.map((family) => {
      const row = rows.find((r) => r.family === family);
      return {
        family,
        label: FAMILY_TITLES[family],
        withoutAllowed: row ? row.without_allowed : COUNTERSIGNATURE_DEFAULTS[family],
        changedBy: row?.changed_by ?? null,
        changedAt: row ? row.changed_at.toISOString() : null,
      };
    });
  }

  /** Whether an envelope of `family` may be sent without a countersignatory; read in the send's transaction. */
  async withoutAllowed(family: Family, executor: Kysely<Database> = this.db): Promise<boolean> {
    const row = await executor
      .selectFrom('countersignature_settings')
      .select('without_allowed')
      .where('family', '=', family)
      .executeTakeFirst();
    return row ? row.without_allowed : COUNTERSIGNATURE_DEFAULTS[family];
  }

  /** Sets the switch; an entry in the audit log records the old and the new value. */
  async change(actor: string, family: Family, withoutAllowed: boolean): Promise<CountersignatureSetting[]> {
    await this.db.transaction().execute(async (trx) => {
      const before = await this.withoutAllowed(family, trx);
      await trx
        .insertInto('countersignature_settings')
        .values({ family, without_allowed: withoutAllowed, changed_by: actor, changed_at: new Date() })
        .onConflict((oc) =>
          oc.column('family').doUpdateSet({
            without_allowed: withoutAllowed,
            changed_by: actor,
            changed_at: new Date(),
          }),
        )
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'countersignature.set',
          subject: FAMILY_TITLES[family],
          oldValue: described(before),
          newValue: described(withoutAllowed),
        },
        trx,
      );
    });
    return this.list();
  }
}
