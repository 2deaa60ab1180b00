import type { Db } from '../../db/database.js';
import type { MailOutbox } from '../../mail/mail-outbox.js';
import type { Actor, EnvelopesRepository } from '../envelopes-repository.js';
import type { SigningLinks } from '../signing-links.js';
import { signingCodeMail } from '../signing-mails.js';
import { lockedMessage, type SignerVerification, timeOfDay } from './signer-verification.js';
import { SignerVerificationProblem } from './verification-problem.js';

export interface SigningCodeStepDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  links: SigningLinks;
  verification: SignerVerification;
}

/**
 * The signer's code step behind their link: `Code senden` mails a new code, `Bestätigen` checks the one
 * typed. Each runs in one transaction under the envelope's lock, with its mail or event; a wrong code is
 * counted (committed) before it is refused.
 */
export class SigningCodeStep {
  constructor(private readonly deps: SigningCodeStepDeps) {}

  /** Mails the signer a new code, unless none is needed or it was already confirmed. */
  async sendCode(token: string): Promise<void> {
    const { db, links, verification, outbox } = this.deps;
    const sent = await db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await links.resolve(token, trx, { lock: true });
      if (await verification.verified(envelope, recipient, trx)) return false;
      const { code, expiresAt } = await verification.issue(recipient, trx);
      await outbox.enqueue([signingCodeMail(envelope, recipient, code, expiresAt)], trx);
      return true;
    });
    if (sent) outbox.deliverSoon();
  }

  /** Confirms the signer's link with the code from their mail, recorded as an event of the envelope. */
  async verify(token: string, code: string, actor: Omit<Actor, 'email'>): Promise<void> {
    const { db, links, verification, envelopes } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await links.resolve(token, trx, { lock: true });
      const outcome = await verification.confirm(envelope, recipient, code, trx);
      const event = {
        envelopeId: envelope.id,
        recipientId: recipient.id,
        actor: { ...actor, email: recipient.email },
      };
      if (outcome.kind === 'verified' && outcome.fresh) {
        await envelopes.addEvent(
          { ...event, type: 'verified', detail: `Code an ${recipient.email} bestätigt` },
          trx,
        );
      }
      if (outcome.kind === 'locked' && outcome.fresh) {
        await envelopes.addEvent(
          {
            ...event,
            type: 'verification_locked',
            detail: `Zu viele falsche Codes für ${recipient.email}; gesperrt bis ${timeOfDay(outcome.until)} Uhr`,
          },
          trx,
        );
      }
      return outcome;
    });
    switch (outcome.kind) {
      case 'wrong':
        throw new SignerVerificationProblem(
          'code_wrong',
          `Der Code stimmt nicht. Du hast noch ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'Versuch' : 'Versuche'}.`,
        );
      case 'expired':
        throw new SignerVerificationProblem(
          'code_expired',
          outcome.neverSent
            ? 'Bitte fordere zuerst einen Code an.'
            : 'Dieser Code gilt nicht mehr. Bitte fordere einen neuen Code an.',
        );
      case 'locked':
        throw new SignerVerificationProblem('verification_locked', lockedMessage(outcome.until));
      default:
        return;
    }
  }
}
