import { formatDateTime } from '@vertragsgenerator/domain';
import type { Db } from '../../db/database.js';
import type { MailOutbox } from '../../mail/mail-outbox.js';
import { LeasedRuns } from '../../shared/leased-runs.js';
import type { Actor, EnvelopesRepository, Executor } from '../envelopes-repository.js';
import type { SigningLinks } from '../signing-links.js';
import { type EnvelopeForMail, reminderMail } from '../signing-mails.js';
import { EnvelopeStateProblem } from '../signing-problems.js';
import { lockWaitingSigner } from '../waiting-signer.js';
import { isLastCall, nextReminderAt } from './reminder-schedule.js';

/** Recipients handled per transaction of a run. */
const BATCH = 50;
/** Automatic reminders are recorded without a person. */
const SYSTEM: Actor = { email: '', ip: null, userAgent: null };

export interface SigningRemindersDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  links: SigningLinks;
  /** SIGNING_REMINDER_DAYS; 0: no automatic reminders. */
  reminderEveryDays: number;
  now?: () => Date;
}

type DueRecipient = Awaited<ReturnType<SigningReminders['due']>>[number];

/** What a reminder needs of its signer. */
interface WaitingRecipient {
  id: string;
  name: string;
  email: string;
  token_expires_at: Date | null;
  link_generation: number | null;
}

/**
 * Reminds signers who have not answered: automatically when `reminder_due_at` has come
 * (scheduled with each link), and on `Erinnern` in the sender view. A run locks the due recipients
 * (FOR UPDATE SKIP LOCKED) and, in the same transaction, queues each mail, records the event and moves
 * the next reminder on: with several replicas every reminder goes out once.
 */
export class SigningReminders {
  private readonly runs = new LeasedRuns();
  private readonly now: () => Date;

  constructor(private readonly deps: SigningRemindersDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Sends every due reminder; returns how many went out. */
  sendDue(): Promise<number> {
    return this.runs.track(this.run());
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  /** `Erinnern`: reminds a waiting signer now; the automatic ones count on from here. */
  async remind(envelopeId: string, recipientId: string, actor: Actor): Promise<void> {
    const { db, envelopes, outbox } = this.deps;
    await db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await lockWaitingSigner(
        envelopes,
        { envelopeId, recipientId },
        trx,
        'es gibt nichts zu erinnern',
      );
      if (!recipient.token_expires_at || recipient.token_expires_at <= this.now()) {
        throw new EnvelopeStateProblem(
          `Der Link von ${recipient.name} ist abgelaufen: schicke mit „Link erneuern“ einen neuen.`,
        );
      }
      await this.send({ ...envelope, id: envelopeId }, recipient, actor, trx);
    });
    outbox.deliverSoon();
  }

  private async run(): Promise<number> {
    let sent = 0;
    for (;;) {
      if (this.runs.stopping) return sent;
      const batch = await this.deps.db.transaction().execute(async (trx) => {
        const due = await this.due(trx);
        let reminded = 0;
        for (const recipient of due) {
          if (this.stillWaiting(recipient)) {
            await this.send({ ...recipient, id: recipient.envelope_id }, recipient, SYSTEM, trx);
            reminded++;
          } else {
            // Signed, declined, withdrawn or expired meanwhile: nothing more to remind of.
            await trx
              .updateTable('envelope_recipients')
              .set({ reminder_due_at: null })
              .where('id', '=', recipient.id)
              .execute();
          }
        }
        return { found: due.length, reminded };
      });
      sent += batch.reminded;
      if (batch.reminded > 0) this.deps.outbox.deliverSoon();
      if (batch.found < BATCH) return sent;
    }
  }

  private stillWaiting(recipient: DueRecipient): boolean {
    return (
      recipient.envelope_status === 'sent' &&
      (recipient.status === 'sent' || recipient.status === 'opened') &&
      recipient.token_expires_at !== null &&
      recipient.token_expires_at > this.now()
    );
  }

  /** The recipients whose reminder is due, with their envelope; another replica's run holds the rest. */
  private due(trx: Executor) {
    return trx
      .selectFrom('envelope_recipients as r')
      .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
      .select([
        'r.id',
        'r.envelope_id',
        'r.name',
        'r.email',
        'r.status',
        'r.token_expires_at',
        'r.link_generation',
        'e.status as envelope_status',
        'e.subject',
        'e.message',
        'e.sender_name',
        'e.sender_email',
      ])
      .where('r.reminder_due_at', '<=', this.now())
      .orderBy('r.reminder_due_at')
      .limit(BATCH)
      .forUpdate(['r'])
      .skipLocked()
      .execute();
  }

  /** Queues the reminder, records it and schedules the next, in the caller's transaction. */
  private async send(
    envelope: EnvelopeForMail,
    recipient: WaitingRecipient,
    actor: Actor,
    trx: Executor,
  ): Promise<void> {
    const now = this.now();
    const expiresAt = recipient.token_expires_at as Date;
    await this.deps.outbox.enqueue(
      [
        reminderMail(envelope, recipient, this.deps.links.current(recipient), expiresAt, {
          lastCall: isLastCall(now, expiresAt),
        }),
      ],
      trx,
    );
    await trx
      .updateTable('envelope_recipients')
      .set({ reminder_due_at: nextReminderAt(now, expiresAt, this.deps.reminderEveryDays) })
      .where('id', '=', recipient.id)
      .execute();
    await this.deps.envelopes.addEvent(
      {
        envelopeId: envelope.id,
        recipientId: recipient.id,
        type: 'reminded',
        actor,
        detail: `${actor === SYSTEM ? 'Automatische Erinnerung' : 'Erinnerung'} an ${recipient.name} <${recipient.email}>, Link gültig bis ${formatDateTime(expiresAt)} Uhr`,
      },
      trx,
    );
  }
}
