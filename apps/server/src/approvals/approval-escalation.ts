/**
 * Owns who hears of a request: the approvers' addresses (never the requester's), and the escalation
 * mail to the next group in turn once a request waited its working days without a decision.
 */
import {
  APPROVER_GROUP_LEVELS,
  type ApprovalRules,
  type ApproverGroup,
  approvalReasonText,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { HttpError } from '../shared/http-error.js';
import type { Executor } from '../signature/envelopes-repository.js';
import { approvalBatchEscalatedMail, approvalEscalatedMail } from './approval-mails.js';

export interface ApprovalEscalationDeps {
  db: Db;
  outbox: MailOutbox;
  publicUrl: string;
  now?: () => Date;
}

/** Whom a new request is mailed to, and whether that is everyone the rules name (see below). */
export interface NewRequestAddressees {
  to: string[];
  /**
   * The first group in turn (with the deputies) has nobody but the requester, so everyone the rules
   * name was mailed: the request is escalated from the start (`escalates_at` now), as each of them may
   * decide at once, and needs no escalation mail later.
   */
  escalated: boolean;
}

/**
 * Whom a new request is mailed to: the first group in turn and the deputies, or everyone the rules name
 * when that group has nobody but the requester. A 422 when nobody but the requester may decide at all;
 * `subject` names what is asked for („diesen Umschlag“, „dieses Dokument“).
 */
export async function addresseesOfNewRequest(
  executor: Executor,
  rules: ApprovalRules,
  requester: string,
  subject: string,
): Promise<NewRequestAddressees> {
  const first = await approverAddresses(
    executor,
    rules.approvers.order.slice(0, 1),
    rules.deputies,
    requester,
  );
  if (first.length > 0) return { to: first, escalated: false };
  const everyone = await approverAddresses(executor, rules.approvers.order, rules.deputies, requester);
  if (everyone.length === 0) {
    throw new HttpError(
      422,
      'no_approver',
      `Niemand außer dir darf ${subject} freigeben. Bitte wende dich an die Verwaltung.`,
    );
  }
  return { to: everyone, escalated: true };
}

/** Addresses of the staff of `groups` and the deputies, without `except` (never the requester). */
async function approverAddresses(
  executor: Executor,
  groups: readonly ApproverGroup[],
  deputies: string[],
  except: string,
): Promise<string[]> {
  const levels = groups.map((g) => APPROVER_GROUP_LEVELS[g]);
  const rows = await executor
    .selectFrom('users')
    .select('email')
    .where((eb) =>
      eb.or([
        ...(levels.length > 0 ? [eb('permission', 'in', levels)] : []),
        ...(deputies.length > 0 ? [eb('email', 'in', deputies)] : []),
      ]),
    )
    .execute();
  return [...new Set(rows.map((r) => r.email))].filter(
    (email) => email.toLowerCase() !== except.toLowerCase(),
  );
}

export class ApprovalEscalation {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalEscalationDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Mails the next group in turn of every open request whose escalation is due, once (a periodic job).
   * Each request is claimed with `SKIP LOCKED`, its mails queued in the same transaction.
   */
  async mailEscalations(): Promise<number> {
    let mailed = 0;
    for (;;) {
      const done = await this.deps.db.transaction().execute(async (trx) => {
        const request = await trx
          .selectFrom('approval_requests')
          .selectAll()
          .where('status', '=', 'open')
          .where('escalation_mailed_at', 'is', null)
          .where('escalates_at', '<=', this.now())
          .orderBy('escalates_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!request) return false;
        // A batch's deals escalate together, as they were asked: one mail for all of them.
        const escalated = await trx
          .updateTable('approval_requests')
          .set({ escalation_mailed_at: this.now() })
          .where((eb) =>
            request.batch_id
              ? eb.and([
                  eb('batch_id', '=', request.batch_id),
                  eb('status', '=', 'open'),
                  eb('escalation_mailed_at', 'is', null),
                ])
              : eb('id', '=', request.id),
          )
          .executeTakeFirst();
        const next = request.rules.approvers.order.slice(1);
        const first = new Set(
          await approverAddresses(
            trx,
            request.rules.approvers.order.slice(0, 1),
            request.rules.deputies,
            request.requested_by,
          ),
        );
        const addresses = (await approverAddresses(trx, next, [], request.requested_by)).filter(
          (a) => !first.has(a),
        );
        const texts = request.reasons.map(approvalReasonText);
        await this.deps.outbox.enqueue(
          addresses.map((to) =>
            request.batch_id
              ? approvalBatchEscalatedMail(
                  { ...request, batchId: request.batch_id, deals: Number(escalated.numUpdatedRows) },
                  to,
                  this.deps.publicUrl,
                )
              : approvalEscalatedMail(request, to, texts, this.deps.publicUrl),
          ),
          trx,
        );
        return true;
      });
      if (!done) break;
      mailed++;
    }
    if (mailed > 0) this.deps.outbox.deliverSoon();
    return mailed;
  }
}
