import { createHmac, randomBytes } from 'node:crypto';
import { type EnvelopeStatus, formatDateTime } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../shared/sha256.js';
import type { EnvelopesRepository, Executor } from './envelopes-repository.js';
import { DAY_MS, nextReminderAt } from './reminders/reminder-schedule.js';
import { SigningLinkProblem } from './signing-problems.js';

/** 32 bytes (an HMAC-SHA-256, or random for links issued before migration 0012), base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const LAPSED_MESSAGE =
  'Dieses Dokument kann nicht mehr unterschrieben werden: Die Frist ist abgelaufen und es wurde gelöscht. Bitte wende dich an den Absender, wenn du es noch unterschreiben möchtest.';

const CLOSED_MESSAGES: Partial<Record<EnvelopeStatus, string>> = {
  voided: 'Der Absender hat dieses Dokument zurückgezogen. Du musst nichts mehr tun.',
  declined:
    'Die Unterschrift unter diesem Dokument wurde abgelehnt. Es kann nicht mehr unterschrieben werden.',
  completed: 'Dieses Dokument ist bereits von allen unterschrieben.',
  failed: 'Dieses Dokument kann nicht unterschrieben werden. Bitte wende dich an den Absender.',
  lapsed: LAPSED_MESSAGE,
};

export type EnvelopeWithFileName = Awaited<ReturnType<EnvelopesRepository['withFileName']>>;

/**
 * The key link tokens are derived from, made on the first start and kept in the database so that every
 * replica derives the same links. Replicas starting at once both make one; the first insert wins.
 */
export async function loadSigningLinkKey(db: Db): Promise<Buffer> {
  await db
    .insertInto('signing_link_key')
    .values({ key: randomBytes(32) })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db
    .selectFrom('signing_link_key')
    .select('key')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.key);
}

/**
 * The signers' personal links: issued with an expiry, and resolved to their envelope and signer or
 * refused with what is wrong with them.
 */
export class SigningLinks {
  constructor(
    private readonly deps: {
      envelopes: EnvelopesRepository;
      publicUrl: string;
      linkValidDays: number;
      /** Days between automatic reminders (SIGNING_REMINDER_DAYS); 0: none. */
      reminderEveryDays: number;
      /** From `loadSigningLinkKey`. */
      key: Buffer;
      now: () => Date;
    },
  ) {}

  /**
   * A new personal link for a recipient (as read under the envelope's lock), valid SIGNING_LINK_DAYS,
   * which makes every earlier one useless; the first reminder is scheduled with it. Only the token's
   * SHA-256 is stored.
   */
  async issue(
    recipient: { id: string; link_generation: number | null },
    trx: Executor,
  ): Promise<{ url: string; expiresAt: Date }> {
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + this.deps.linkValidDays * DAY_MS);
    const generation = (recipient.link_generation ?? 0) + 1;
    const token = this.token(recipient.id, generation);
    await trx
      .updateTable('envelope_recipients')
      .set({
        token_sha256: sha256Hex(token),
        token_expires_at: expiresAt,
        link_generation: generation,
        reminder_due_at: nextReminderAt(now, expiresAt, this.deps.reminderEveryDays),
      })
      .where('id', '=', recipient.id)
      .execute();
    return { url: this.url(token), expiresAt };
  }

  /**
   * The link a recipient holds now, for a reminder; null for a link issued before links were derived
   * (its token exists only in the invitation mail).
   */
  current(recipient: { id: string; link_generation: number | null }): string | null {
    if (recipient.link_generation === null) return null;
    return this.url(this.token(recipient.id, recipient.link_generation));
  }

  private token(recipientId: string, generation: number): string {
    return createHmac('sha256', this.deps.key).update(`${recipientId}:${generation}`).digest('base64url');
  }

  private url(token: string): string {
    return `${this.deps.publicUrl}/unterschreiben#${token}`;
  }

  /**
   * Resolves a link to its envelope and signer, or throws what is wrong with it. A malformed,
   * guessed or unknown token gets the same answer as one from a deleted envelope.
   */
  async resolve(token: string, trx: Executor, options: { lock?: boolean } = {}) {
    const invalid = new SigningLinkProblem(
      'link_invalid',
      'Dieser Link ist ungültig. Bitte prüfe, ob du ihn vollständig aus der E-Mail übernommen hast.',
    );
    if (!TOKEN_PATTERN.test(token)) throw invalid;
    const found = await trx
      .selectFrom('envelope_recipients as r')
      .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
      .leftJoin('documents as d', 'd.id', 'e.document_id')
      .select(['r.envelope_id', 'e.status', 'd.id as document_id'])
      .where('r.token_sha256', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!found) throw invalid;
    // A retention rule deleted the document: the envelope has ended, whatever the link says.
    if (found.document_id === null) {
      throw new SigningLinkProblem('envelope_closed', CLOSED_MESSAGES[found.status] ?? LAPSED_MESSAGE);
    }
    const envelope = await this.deps.envelopes.withFileName(found.envelope_id, trx, {
      lock: options.lock ?? false,
    });
    // Read after the lock: the state another signer's transaction may just have changed.
    const recipient = await trx
      .selectFrom('envelope_recipients')
      .selectAll()
      .where('token_sha256', '=', sha256Hex(token))
      .executeTakeFirstOrThrow();
    if (recipient.status === 'signed' && recipient.signed_at) {
      throw new SigningLinkProblem(
        'link_used',
        `Du hast dieses Dokument bereits am ${formatDateTime(recipient.signed_at)} Uhr unterschrieben. Sobald alle unterschrieben haben, erhältst du es per E-Mail.`,
      );
    }
    if (recipient.status === 'declined') {
      throw new SigningLinkProblem('link_used', 'Du hast die Unterschrift unter diesem Dokument abgelehnt.');
    }
    const closed = CLOSED_MESSAGES[envelope.status];
    if (closed) throw new SigningLinkProblem('envelope_closed', closed);
    if (!recipient.token_expires_at || recipient.token_expires_at <= this.deps.now()) {
      throw new SigningLinkProblem(
        'link_expired',
        `Dieser Link ist abgelaufen${recipient.token_expires_at ? ` (gültig bis ${formatDateTime(recipient.token_expires_at)} Uhr)` : ''}. Bitte ${envelope.sender_name} (${envelope.sender_email}) um einen neuen Link.`,
      );
    }
    return { envelope, recipient };
  }
}
