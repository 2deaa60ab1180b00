import {
  APPROVER_GROUP_LEVELS,
  type ApprovalRules,
  type ApprovalRulesChange,
  type ApprovalRulesView,
  approvalDocumentTypeOptions,
  approvalRulesSchema,
  DEFAULT_APPROVAL_RULES,
} from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { forbidden, HttpError } from '../shared/http-error.js';
import type { Executor } from '../signature/envelopes-repository.js';

/** The rules as stored: what was read is parsed again, so a hand-edited row cannot weaken the gate. */
function parsedRules(stored: unknown): ApprovalRules {
  const result = approvalRulesSchema.safeParse(typeof stored === 'string' ? JSON.parse(stored) : stored);
  return result.success ? result.data : DEFAULT_APPROVAL_RULES;
}

/**
 * The approval rules (Freigabe), one set in `approval_rules` row 1: read by the gate and by every new
 * request, changed by administrators and legal staff on /verwaltung. A change and its audit entry are
 * one transaction; a stale `version` is refused (409), so two editors never overwrite each other
 * unnoticed. Requests keep a snapshot of the rules they were made under.
 */
export class ApprovalRulesStore {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  /** The rules now; pass a transaction to read them with what it does. */
  async current(executor: Executor = this.db): Promise<{ rules: ApprovalRules; version: number }> {
    const row = await executor
      .selectFrom('approval_rules')
      .select(['rules', 'version'])
      .where('id', '=', 1)
      .executeTakeFirst();
    return row
      ? { rules: parsedRules(row.rules), version: row.version }
      : { rules: DEFAULT_APPROVAL_RULES, version: 0 };
  }

  /**
   * Whether the rules now name the user as approver: a member of a group in the order (leaders, legal
   * staff) or a deputy. The web offers /freigaben by it; each request still decides by its own rules.
   */
  async mayApprove(user: { email: string; permission: number | null }): Promise<boolean> {
    const { rules } = await this.current();
    if (rules.deputies.includes(user.email.toLowerCase())) return true;
    return rules.approvers.order.some((group) => APPROVER_GROUP_LEVELS[group] === user.permission);
  }

  /** What the caller may do: change the rules (administrators, legal staff), name deputies (administrators). */
  async view(may: { change: boolean; nameDeputies: boolean }): Promise<ApprovalRulesView> {
    const row = await this.db.selectFrom('approval_rules').selectAll().where('id', '=', 1).executeTakeFirst();
    return {
      rules: row ? parsedRules(row.rules) : DEFAULT_APPROVAL_RULES,
      version: String(row?.version ?? 0),
      changedBy: row?.changed_by ?? null,
      changedAt: row?.changed_at ? row.changed_at.toISOString() : null,
      mayChange: may.change,
      mayNameDeputies: may.change && may.nameDeputies,
      documentTypeOptions: approvalDocumentTypeOptions(),
    };
  }

  /**
   * Replaces the rules; the audit log records the old and the new ones. Only an administrator names
   * deputies: from anyone else, changed deputies are refused (403) and nothing is applied.
   */
  async change(
    actor: { email: string; administrator: boolean },
    change: ApprovalRulesChange,
  ): Promise<ApprovalRulesView> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('approval_rules')
        .selectAll()
        .where('id', '=', 1)
        .forUpdate()
        .executeTakeFirst();
      const before = row ? parsedRules(row.rules) : DEFAULT_APPROVAL_RULES;
      const version = row?.version ?? 0;
      if (!actor.administrator && !sameDeputies(before.deputies, change.rules.deputies)) {
        throw forbidden(
          'Vertretungen benennt nur die Verwaltung (Administration). Die übrigen Regeln kannst du ändern, wenn du die Vertretungen unverändert lässt.',
        );
      }
      if (change.version !== undefined && change.version !== String(version)) {
        throw new HttpError(
          409,
          'conflict',
          'Die Freigabe-Regeln wurden inzwischen geändert. Bitte lade die Seite neu und prüfe sie noch einmal.',
        );
      }
      const rules = JSON.stringify(change.rules);
      if (row) {
        await trx
          .updateTable('approval_rules')
          .set({ rules, version: version + 1, changed_by: actor.email, changed_at: new Date() })
          .where('id', '=', 1)
          .execute();
      } else {
        await trx
          .insertInto('approval_rules')
          .values({ id: 1, rules, version: 1, changed_by: actor.email, changed_at: new Date() })
          .execute();
      }
      await this.audit.record(
        {
          actor: actor.email,
          action: 'approval-rules.set',
          subject: 'Freigabe-Regeln',
          oldValue: JSON.stringify(before),
          newValue: rules,
        },
        trx,
      );
    });
    return this.view({ change: true, nameDeputies: actor.administrator });
  }
}

/** The same deputies, whatever their order or case. */
function sameDeputies(a: readonly string[], b: readonly string[]): boolean {
  const normal = (list: readonly string[]) =>
    [...new Set(list.map((e) => e.toLowerCase()))].sort().join('\n');
  return normal(a) === normal(b);
}
