import { randomBytes } from 'node:crypto';
import { type EnvelopeStatus, formatDateTime } from '@vertragsgenerator/domain';
import { sha256Hex } from '../sha256.js';
import type { EnvelopesRepository, Executor } from './envelopes-repository.js';
import { SigningLinkProblem } from './signing-problems.js';

/** 32 random bytes: unguessable; only its SHA-256 is stored. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const CLOSED_MESSAGES: Partial<Record<EnvelopeStatus, string>> = {
  voided: 'Der Absender hat dieses Dokument zurückgezogen. Du musst nichts mehr tun.',
  declined:
    'Die Unterschrift unter diesem Dokument wurde abgelehnt. Es kann nicht mehr unterschrieben werden.',
  completed: 'Dieses Dokument ist bereits von allen unterschrieben.',
  failed: 'Dieses Dokument kann nicht unterschrieben werden. Bitte wende dich an den Absender.',
};

export type EnvelopeWithFileName = Awaited<ReturnType<EnvelopesRepository['withFileName']>>;

/**
 * The signers' personal links: issued with an expiry, and resolved to their envelope and signer or
 * refused with what is wrong with them (DESIGN §6).
 */
export class SigningLinks {
  constructor(
    private readonly deps: {
      envelopes: EnvelopesRepository;
      publicUrl: string;
      linkValidDays: number;
      now: () => Date;
    },
  ) {}

  /** A new personal link for a recipient: 32 random bytes, of which only the SHA-256 is stored. */
  async issue(recipientId: string, trx: Executor): Promise<{ url: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.deps.now().getTime() + this.deps.linkValidDays * 24 * 3600_000);
    await trx
      .updateTable('envelope_recipients')
      .set({ token_sha256: sha256Hex(token), token_expires_at: expiresAt })
      .where('id', '=', recipientId)
      .execute();
    return { url: `${this.deps.publicUrl}/unterschreiben#${token}`, expiresAt };
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
      .selectFrom('envelope_recipients')
      .select('envelope_id')
      .where('token_sha256', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!found) throw invalid;
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
