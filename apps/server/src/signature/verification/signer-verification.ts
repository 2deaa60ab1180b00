import {
  SIGNING_CODE_LOCK_MINUTES,
  SIGNING_CODE_MAX_WRONG,
  SIGNING_CODE_RESEND_SECONDS,
  SIGNING_CODE_VALID_MINUTES,
  type SignerVerification as SignerVerificationView,
  type SigningOtpMode,
} from '@vertragsgenerator/domain';
import type { Executor } from '../envelopes-repository.js';
import {
  type CodeOwner,
  maskedAddress,
  newSignerCode,
  signerCodeHmac,
  signerCodeMatches,
} from './signer-code.js';
import {
  type CodesRepository,
  type SignerCodeRecord,
  signerCodesRepository,
} from './signer-codes-repository.js';
import { SignerVerificationProblem } from './verification-problem.js';

const MINUTE_MS = 60_000;
const CODE_VALID_MS = SIGNING_CODE_VALID_MINUTES * MINUTE_MS;
const RESEND_AFTER_MS = SIGNING_CODE_RESEND_SECONDS * 1000;
const LOCK_MS = SIGNING_CODE_LOCK_MINUTES * MINUTE_MS;

/** What the code step needs of an envelope. */
export interface EnvelopeForCode {
  status: string;
  signer_code: boolean;
}

/** What the code step needs of a signer, as their link resolved to them. */
export interface SignerForCode {
  id: string;
  email: string;
  /** The link the signer used; a renewed link starts the code step afresh. */
  token_sha256: string | null;
}

/** How a code the signer typed turned out. `fresh`: this attempt changed the record (for the history). */
export type CodeOutcome =
  | { kind: 'not_required' }
  | { kind: 'verified'; fresh: boolean }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'expired'; neverSent: boolean }
  | { kind: 'locked'; until: Date; fresh: boolean };

/** German local time of day, as the lock message names its end. */
const BERLIN_TIME = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  minute: '2-digit',
});
export const timeOfDay = (date: Date) => BERLIN_TIME.format(date);

export function lockedMessage(until: Date): string {
  return `Zu viele falsche Codes. Der Link ist bis ${timeOfDay(until)} Uhr gesperrt.`;
}

/**
 * Signers confirm a six-digit code mailed to the address their envelope names before the document
 * opens (SIGNING_OTP). A code works for 10 minutes and only for the link it went out for; a new one may
 * be asked for after 60 seconds and replaces the last; 5 wrong codes lock the link for 15 minutes.
 * The methods work in the caller's transaction, under the envelope's lock, so that concurrent guesses
 * are counted one after the other.
 */
export class SignerVerification {
  constructor(
    private readonly deps: {
      mode: SigningOtpMode;
      /** Keys the codes' HMAC; the signing-link key, which every replica shares. */
      key: Buffer;
      now: () => Date;
      /** Where the codes are kept: the signers' table unless another link holder's (reviewers). */
      codes?: CodesRepository;
    },
  ) {}

  private get codes(): CodesRepository {
    return this.deps.codes ?? signerCodesRepository;
  }

  /** Whether this envelope's signers are asked for a code: `required` and `off` override the envelope. */
  required(envelope: Pick<EnvelopeForCode, 'signer_code'>): boolean {
    if (this.deps.mode === 'off') return false;
    return this.deps.mode === 'required' || envelope.signer_code;
  }

  /** The sender view's setting: the sender switches it only on a draft, and only with `optional`. */
  setting(envelope: EnvelopeForCode): { enabled: boolean; changeable: boolean } {
    return {
      enabled: this.required(envelope),
      changeable: this.deps.mode === 'optional' && envelope.status === 'created',
    };
  }

  /**
   * What a sent envelope stores from the sender's choice; null: a choice SIGNING_OTP does not allow
   * (switching the code off where it is required).
   */
  choice(requested: boolean | undefined): boolean | null {
    if (this.deps.mode === 'off') return false;
    if (this.deps.mode === 'required') return requested === false ? null : true;
    return requested ?? true;
  }

  /** Where the signer's code step stands, as the signing page shows it. */
  async state(
    envelope: EnvelopeForCode,
    signer: SignerForCode,
    executor: Executor,
  ): Promise<SignerVerificationView> {
    const now = this.deps.now();
    const record = await this.current(signer, executor);
    const locked = isLocked(record, now);
    const sentAt = record?.code_sent_at;
    return {
      required: this.required(envelope),
      verified: Boolean(record?.verified_at),
      email: maskedAddress(signer.email),
      codeSent: Boolean(record?.code_hmac && record.code_expires_at && record.code_expires_at > now),
      resendInSeconds: sentAt
        ? Math.max(0, Math.ceil((sentAt.getTime() + RESEND_AFTER_MS - now.getTime()) / 1000))
        : 0,
      lockedUntil: locked && record?.locked_until ? record.locked_until.toISOString() : null,
    };
  }

  /** Whether the signer may see the document, sign or decline: no code asked, or it was confirmed. */
  async verified(envelope: EnvelopeForCode, signer: SignerForCode, executor: Executor): Promise<boolean> {
    if (!this.required(envelope)) return true;
    return Boolean((await this.current(signer, executor))?.verified_at);
  }

  async assertVerified(envelope: EnvelopeForCode, signer: SignerForCode, executor: Executor): Promise<void> {
    if (await this.verified(envelope, signer, executor)) return;
    throw new SignerVerificationProblem(
      'verification_required',
      'Bitte bestätige zuerst den Code, den wir dir per E-Mail geschickt haben.',
    );
  }

  /**
   * A new code for the signer, replacing any earlier one; refused while the link is locked or within
   * 60 seconds of the last code. The caller mails it: it is stored only as its HMAC.
   */
  async issue(signer: SignerForCode, executor: Executor): Promise<{ code: string; expiresAt: Date }> {
    const now = this.deps.now();
    const record = await this.current(signer, executor);
    if (isLocked(record, now) && record?.locked_until) {
      throw new SignerVerificationProblem('verification_locked', lockedMessage(record.locked_until));
    }
    const sentAt = record?.code_sent_at;
    if (sentAt && now.getTime() < sentAt.getTime() + RESEND_AFTER_MS) {
      const seconds = Math.ceil((sentAt.getTime() + RESEND_AFTER_MS - now.getTime()) / 1000);
      throw new SignerVerificationProblem(
        'code_resend_too_early',
        `Einen neuen Code kannst du in ${seconds} ${seconds === 1 ? 'Sekunde' : 'Sekunden'} anfordern.`,
      );
    }
    const code = newSignerCode();
    const expiresAt = new Date(now.getTime() + CODE_VALID_MS);
    await this.save(
      signer,
      {
        ...(record ?? blankRecord(signer)),
        code_hmac: signerCodeHmac(this.deps.key, owner(signer), code),
        code_sent_at: now,
        code_expires_at: expiresAt,
        locked_until: null,
      },
      executor,
    );
    return { code, expiresAt };
  }

  /** Checks a code the signer typed; a wrong one counts towards the lock, a right one confirms the link. */
  async confirm(
    envelope: EnvelopeForCode,
    signer: SignerForCode,
    code: string,
    executor: Executor,
  ): Promise<CodeOutcome> {
    if (!this.required(envelope)) return { kind: 'not_required' };
    const now = this.deps.now();
    const record = await this.current(signer, executor);
    if (record?.verified_at) return { kind: 'verified', fresh: false };
    if (record && isLocked(record, now) && record.locked_until) {
      return { kind: 'locked', until: record.locked_until, fresh: false };
    }
    if (!record?.code_hmac || !record.code_expires_at || record.code_expires_at <= now) {
      return { kind: 'expired', neverSent: !record?.code_sent_at };
    }
    if (signerCodeMatches(this.deps.key, owner(signer), code, record.code_hmac)) {
      await this.save(signer, { ...record, ...spentCode, failed_attempts: 0, verified_at: now }, executor);
      return { kind: 'verified', fresh: true };
    }
    const failed = record.failed_attempts + 1;
    if (failed >= SIGNING_CODE_MAX_WRONG) {
      // The code that was guessed at stops working; after the lock the signer asks for a new one.
      const until = new Date(now.getTime() + LOCK_MS);
      await this.save(signer, { ...record, ...spentCode, failed_attempts: 0, locked_until: until }, executor);
      return { kind: 'locked', until, fresh: true };
    }
    await this.save(signer, { ...record, failed_attempts: failed }, executor);
    return { kind: 'wrong', attemptsLeft: SIGNING_CODE_MAX_WRONG - failed };
  }

  /** The signer's record for the link they hold; one for an earlier link no longer counts. */
  private async current(signer: SignerForCode, executor: Executor): Promise<SignerCodeRecord | undefined> {
    const row = await this.codes.find(signer.id, executor);
    if (!row || row.link_sha256 !== signer.token_sha256) return undefined;
    return row;
  }

  private save(signer: SignerForCode, record: SignerCodeRecord, executor: Executor): Promise<void> {
    return this.codes.save(signer.id, record, executor);
  }
}

const spentCode = { code_hmac: null, code_expires_at: null } as const;

function isLocked(record: SignerCodeRecord | undefined, now: Date): boolean {
  return Boolean(record?.locked_until && record.locked_until > now);
}

function owner(signer: SignerForCode): CodeOwner {
  return { recipientId: signer.id, linkSha256: signer.token_sha256 ?? '' };
}

function blankRecord(signer: SignerForCode): SignerCodeRecord {
  return {
    link_sha256: signer.token_sha256 ?? '',
    code_hmac: null,
    code_sent_at: null,
    code_expires_at: null,
    failed_attempts: 0,
    locked_until: null,
    verified_at: null,
  };
}
