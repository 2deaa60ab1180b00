import {
  type CountersignatureOrder,
  type CountersignaturePosition,
  SIGNATURE_TEMPLATES,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { AuditLog } from './audit-log.js';

const described = (position: CountersignaturePosition) =>
  position === 'first' ? 'Firma unterschreibt zuerst' : 'Firma unterschreibt zuletzt';

/**
 * The administrators' order per template (/verwaltung → Gegenzeichnung): whether the company's
 * countersignatory signs after every other signer, as by default, or before them — for a contract the
 * company offers already signed. A change and its audit entry are one transaction.
 */
export class CountersignatureOrderSettings {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  async list(): Promise<CountersignatureOrder[]> {
    const rows = await this.db.selectFrom('countersignature_order').selectAll().execute();
    return SIGNATURE_TEMPLATES.map((template) => {
      const row = rows.find((r) => r.template === template);
      return {
        template,
        position: row?.first ? 'first' : 'last',
        changedBy: row?.changed_by ?? null,
        changedAt: row ? row.changed_at.toISOString() : null,
      };
    });
  }

  /** Where the countersignatory of `template` signs; read in the send's transaction. */
  async position(template: string, executor: Kysely<Database> = this.db): Promise<CountersignaturePosition> {
    const row = await executor
      .selectFrom('countersignature_order')
      .select('first')
      .where('template', '=', template)
      .executeTakeFirst();
    return row?.first ? 'first' : 'last';
  }

  /** Sets the order of one of `SIGNATURE_TEMPLATES`; an entry in the audit log records the old and the new. */
  async change(
    actor: string,
    template: string,
    position: CountersignaturePosition,
  ): Promise<CountersignatureOrder[]> {
    await this.db.transaction().execute(async (trx) => {
      const before = await this.position(template, trx);
      const values = { first: position === 'first', changed_by: actor, changed_at: new Date() };
      await trx
        .insertInto('countersignature_order')
        .values({ template, ...values })
        .onConflict((oc) => oc.column('template').doUpdateSet(values))
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'countersignature.order',
          subject: template,
          oldValue: described(before),
          newValue: described(position),
        },
        trx,
      );
    });
    return this.list();
  }
}
