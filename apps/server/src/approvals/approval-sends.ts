import { sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { forbidden, HttpError } from '../shared/http-error.js';
import { LeasedRuns, retryBackoffSeconds } from '../shared/leased-runs.js';
import { ApprovalRequiredProblem, type ApprovedSender } from '../signature/approval-gate.js';
import { SEND_STARTED } from '../signature/docusign/docusign-approved-sender.js';
import type { Executor } from '../signature/envelopes-repository.js';
import { EnvelopeStateProblem } from '../signature/signing-problems.js';
import type { StaffMember } from '../users/users-repository.js';
import { approvalSendFailedMail } from './approval-mails.js';
import { lockedRequest, waitingRequestOf } from './approval-queries.js';

/** The requester, or an administrator, may send an uncertain send again; anyone else gets a 403. */
export function assertMaySendAgain(
  request: { requested_by: string },
  user: Pick<StaffMember, 'email' | 'administrator'>,
): void {
  if (request.requested_by.toLowerCase() !== user.email.toLowerCase() && !user.administrator) {
    throw forbidden(
      'Nur wer die Freigabe erbeten hat oder die Verwaltung darf den Versand noch einmal anstoßen.',
    );
  }
}

/** Longer than any send takes (it renders nothing, it queues mail): a lease outlives a send attempt. */
const LEASE_SECONDS = 5 * 60;

export interface ApprovalSendsDeps {
  db: Db;
  sender: ApprovedSender;
  outbox: MailOutbox;
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void };
  /** Records who released an uncertain DocuSign send for another attempt. */
  audit?: AuditLog;
}

/**
 * The send of an approved envelope, in the requester's name, exactly once. The decision records a
 * pending send (`send_state = 'pending'`) in its own transaction; this run leases it like the mail
 * outbox (one UPDATE … SKIP LOCKED, so two processes never take the same), and the send marks it done
 * in the send's own transaction. A crash before that commit leaves the envelope a draft and the send
 * pending: the lease expires and the next run (of this or another process, after a restart) sends it.
 * A crash after it leaves nothing to do. A second send of the same envelope finds it sent and stops.
 */
export class ApprovalSends {
  private readonly runs = new LeasedRuns();

  constructor(private readonly deps: ApprovalSendsDeps) {}

  /** Starts a run without waiting for it. */
  sendSoon(): void {
    this.sendDue().catch((error) => this.deps.log?.warn({ err: error }, 'approval send run failed'));
  }

  /** Sends every due approved envelope; returns how many went out. */
  sendDue(): Promise<number> {
    return this.runs.track(this.run());
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  /**
   * Runs the due sends and waits, at most `timeoutMs`, until the send of `approvalId` is no longer pending:
   * a run of another process (or of the periodic job) may hold it. The answer to `Freigeben` then says how
   * the send went; whatever it says, the send is completed by some run.
   */
  async settle(approvalId: string, timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.sendDue();
      const row = await this.deps.db
        .selectFrom('approval_requests')
        .select(['send_state', 'send_attempts', 'send_error'])
        .where('id', '=', approvalId)
        .executeTakeFirst();
      // Pending after a failed attempt waits for its retry: no use waiting here.
      if (row?.send_state !== 'pending' || row.send_error !== null || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * The way out of an uncertain DocuSign send (docusign-approved-sender.ts): an attempt was handed to
   * DocuSign without an answer, so every later attempt refused to call again. Once the requester or an
   * administrator checked DocuSign and confirms the envelope is not there, the draft is freed and the
   * send is pending again, for the next run (the caller's, at once). Recorded in the audit log.
   */
  async sendAgain(id: string, user: Pick<StaffMember, 'email' | 'administrator'>): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const request = await lockedRequest(trx, id);
      assertMaySendAgain(request, user);
      const notUncertain = new HttpError(
        409,
        'send_not_uncertain',
        'Für diese Anfrage gibt es keinen unterbrochenen Versand an DocuSign, der noch einmal laufen könnte.',
      );
      if (request.status !== 'approved' || request.send_state !== 'failed' || !request.envelope_id) {
        throw notUncertain;
      }
      const envelope = await trx
        .selectFrom('envelopes')
        .select(['status', 'external_id', 'provider_status'])
        .where('id', '=', request.envelope_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (envelope.status !== 'created' || envelope.external_id) {
        throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wurde bereits versendet oder beendet.');
      }
      if (envelope.provider_status !== SEND_STARTED) throw notUncertain;
      if (await waitingRequestOf(trx, request.envelope_id, id)) {
        throw new HttpError(
          409,
          'approval_pending',
          'Für diesen Umschlag wartet schon eine neuere Anfrage auf Freigabe oder Versand.',
        );
      }
      await trx
        .updateTable('envelopes')
        .set({ provider_status: null })
        .where('id', '=', request.envelope_id)
        .execute();
      await trx
        .updateTable('approval_requests')
        .set({ send_state: 'pending', send_error: null, send_attempts: 0, send_due_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute();
      await this.deps.audit?.record(
        {
          actor: user.email,
          action: 'approval.send-again',
          subject: `${request.file_name} (${request.match_id})`,
          oldValue: request.send_error,
          newValue: 'Nicht bei DocuSign bestätigt; Versand erneut angestoßen',
        },
        trx,
      );
    });
  }

  /** How many approved sends wait (for the metrics and the tests). */
  async pending(): Promise<number> {
    const row = await this.deps.db
      .selectFrom('approval_requests')
      .select(sql<string>`count(*)`.as('n'))
      .where('send_state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private run(): Promise<number> {
    return this.runs.eachLeased(
      () => this.lease(),
      (request) => this.send(request),
    );
  }

  private lease() {
    return this.deps.db
      .updateTable('approval_requests')
      .set({
        send_attempts: sql`send_attempts + 1`,
        send_due_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('approval_requests')
          .select('id')
          .where('send_state', '=', 'pending')
          .where('send_due_at', '<=', sql<Date>`now()`)
          .orderBy('send_due_at')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }

  private async send(request: NonNullable<Awaited<ReturnType<ApprovalSends['lease']>>>): Promise<boolean> {
    const { envelope_id: envelopeId, send_request: sendRequest } = request;
    if (!envelopeId || !sendRequest) {
      await this.fail(request, 'Zu dieser Anfrage gibt es nichts zu versenden.');
      return false;
    }
    try {
      await this.deps.sender.sendApproved(
        envelopeId,
        sendRequest,
        { email: request.requested_by, ip: null, userAgent: null },
        request.id,
        (trx: Executor) =>
          trx
            .updateTable('approval_requests')
            .set({ send_state: 'done', sent_at: new Date(), send_error: null, send_due_at: null })
            .where('id', '=', request.id)
            .where('send_state', '=', 'pending')
            .execute()
            .then(() => undefined),
      );
      return true;
    } catch (error) {
      if (error instanceof EnvelopeStateProblem) {
        // Sent already (by an earlier attempt whose lease ran out) or ended by its sender meanwhile.
        const now = await this.deps.db
          .selectFrom('approval_requests')
          .select('send_state')
          .where('id', '=', request.id)
          .executeTakeFirst();
        if (now?.send_state === 'done') return false;
        await this.fail(request, 'Der Umschlag ist nicht mehr offen; er wurde nicht versendet.');
        return false;
      }
      if (error instanceof ApprovalRequiredProblem) {
        await this.fail(
          request,
          'Das Dokument wurde nach der Freigabe geändert; die Freigabe ist hinfällig.',
          true,
        );
        return false;
      }
      if (error instanceof HttpError && error.statusCode < 500) {
        await this.fail(request, error.message);
        return false;
      }
      const backoff = retryBackoffSeconds(request.send_attempts);
      this.deps.log?.warn(
        { err: error, approvalId: request.id },
        'approved envelope not sent; retrying later',
      );
      await this.deps.db
        .updateTable('approval_requests')
        .set({
          send_error: String((error as Error)?.message ?? error).slice(0, 500),
          send_due_at: sql<Date>`now() + make_interval(secs => ${backoff})`,
        })
        .where('id', '=', request.id)
        .where('send_state', '=', 'pending')
        .execute();
      return false;
    }
  }

  /** A send that cannot succeed by waiting: recorded as failed, the requester is told. */
  private async fail(
    request: {
      id: string;
      envelope_id: string | null;
      match_id: string;
      file_name: string;
      requested_by: string;
      requested_by_name: string;
    },
    problem: string,
    voidRequest = false,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('approval_requests')
        .set({
          send_state: 'failed',
          send_error: problem,
          send_due_at: null,
          ...(voidRequest
            ? { status: 'void' as const, void_reason: 'Dokument nach der Freigabe geändert' }
            : {}),
        })
        .where('id', '=', request.id)
        .where('send_state', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!updated) return;
      await this.deps.outbox.enqueue(
        approvalSendFailedMail(request, problem, this.deps.publicUrl, request.envelope_id),
        trx,
      );
    });
    this.deps.outbox.deliverSoon();
  }
}
