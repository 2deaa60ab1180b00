import {
  formatPeriod,
  RETENTION_DEFAULTS,
  RETENTION_RULE_LABELS,
  RETENTION_RULE_START,
  RETENTION_RULES,
  type RetentionPeriod,
  type RetentionRule,
  type RetentionRuleName,
} from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../shared/http-error.js';

/**
 * The administrators' retention periods (/verwaltung → Aufbewahrung). A change and its audit entry are
 * one transaction. The audit log's rule stays at never: it records the deletions themselves.
 */
export class RetentionRules {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<RetentionRule[]> {
    const rows = await this.db.selectFrom('retention_rules').selectAll().execute();
    return RETENTION_RULES.map((rule) => {
      const row = rows.find((r) => r.rule === rule);
      const period = row ? periodOf(row) : RETENTION_DEFAULTS[rule];
      return {
        rule,
        label: RETENTION_RULE_LABELS[rule],
        start: RETENTION_RULE_START[rule],
        period,
        editable: rule !== 'audit_log',
        changedBy: row?.changed_by ?? null,
        changedAt: row?.changed_at ? row.changed_at.toISOString() : null,
      };
    });
  }

  /** Every rule's period as the run applies it; null: never. */
  async periods(): Promise<Record<RetentionRuleName, RetentionPeriod | null>> {
    const rules = await this.list();
    return Object.fromEntries(rules.map((r) => [r.rule, r.period])) as Record<
      RetentionRuleName,
      RetentionPeriod | null
    >;
  }

  async change(actor: string, rule: RetentionRuleName, period: RetentionPeriod): Promise<RetentionRule[]> {
    if (rule === 'audit_log') {
      throw new HttpError(
        409,
        'rule_fixed',
        'Das Audit-Log wird nie durch eine Regel gelöscht: es hält die Löschungen selbst fest.',
      );
    }
    await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('retention_rules')
        .selectAll()
        .where('rule', '=', rule)
        .forUpdate()
        .executeTakeFirst();
      const values = {
        period_value: period.value,
        period_unit: period.unit,
        changed_by: actor,
        changed_at: this.now(),
      };
      await trx
        .insertInto('retention_rules')
        .values({ rule, ...values })
        .onConflict((oc) => oc.column('rule').doUpdateSet(values))
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'retention.rule.set',
          subject: RETENTION_RULE_LABELS[rule],
          oldValue: formatPeriod(before ? periodOf(before) : RETENTION_DEFAULTS[rule]),
          newValue: formatPeriod(period),
        },
        trx,
      );
    });
    return this.list();
  }
}

function periodOf(row: {
  period_value: number | null;
  period_unit: RetentionPeriod['unit'] | null;
}): RetentionPeriod | null {
  return row.period_value !== null && row.period_unit !== null
    ? { value: row.period_value, unit: row.period_unit }
    : null;
}
