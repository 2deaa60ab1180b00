import {
  COMPANIES,
  CONTRACT_REMINDER_COMPANY_LABELS,
  CONTRACT_REMINDER_DEFAULTS,
  type Company,
  type ContractReminderSetting,
  type ContractReminderSettingsChange,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** A company's lead times in days: before the last day to give notice, and before the end. */
export interface LeadTimes {
  noticeDays: number;
  endDays: number;
}

const described = ({ noticeDays, endDays }: LeadTimes) =>
  `${noticeDays} Tage vor der Kündigungsfrist, ${endDays} Tage vor dem Vertragsende`;

/**
 * How long before a contract's deadlines its reminders go out, per company (/verwaltung). Staff read
 * them; administrators change them, each change with its audit entry in the change's transaction. A
 * company never changed keeps `CONTRACT_REMINDER_DEFAULTS`.
 */
export class ContractReminderSettings {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  async list(executor: Kysely<Database> = this.db): Promise<ContractReminderSetting[]> {
    const rows = await executor.selectFrom('contract_reminder_settings').selectAll().execute();
    return COMPANIES.map((company) => {
      const row = rows.find((r) => r.company === company);
      return {
        company,
        label: CONTRACT_REMINDER_COMPANY_LABELS[company],
        noticeDays: row?.notice_days ?? CONTRACT_REMINDER_DEFAULTS.noticeDays,
        endDays: row?.end_days ?? CONTRACT_REMINDER_DEFAULTS.endDays,
        changedBy: row?.changed_by ?? null,
        changedAt: row ? row.changed_at.toISOString() : null,
      };
    });
  }

  /** Each company's lead times, as a run reads them. */
  async leadTimes(executor: Kysely<Database> = this.db): Promise<Record<Company, LeadTimes>> {
    const settings = await this.list(executor);
    return Object.fromEntries(
      settings.map((s) => [s.company, { noticeDays: s.noticeDays, endDays: s.endDays }]),
    ) as Record<Company, LeadTimes>;
  }

  /** Sets the lead times of the companies named; one audit entry per company whose values changed. */
  async change(actor: string, change: ContractReminderSettingsChange): Promise<ContractReminderSetting[]> {
    await this.db.transaction().execute(async (trx) => {
      // One change at a time: the audit's old value is the one replaced.
      await trx.selectFrom('contract_reminder_settings').select('company').forUpdate().execute();
      const before = await this.leadTimes(trx);
      for (const { company, noticeDays, endDays } of change.settings) {
        const old = before[company];
        if (old.noticeDays === noticeDays && old.endDays === endDays) continue;
        const values = {
          notice_days: noticeDays,
          end_days: endDays,
          changed_by: actor,
          changed_at: new Date(),
        };
        await trx
          .insertInto('contract_reminder_settings')
          .values({ company, ...values })
          .onConflict((oc) => oc.column('company').doUpdateSet(values))
          .execute();
        await this.audit.record(
          {
            actor,
            action: 'contract.reminder-settings',
            subject: CONTRACT_REMINDER_COMPANY_LABELS[company],
            oldValue: described(old),
            newValue: described({ noticeDays, endDays }),
          },
          trx,
        );
      }
    });
    return this.list();
  }
}
