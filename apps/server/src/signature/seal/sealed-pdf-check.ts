import type { SealCheck, SealCheckVerdict } from '@vertragsgenerator/domain';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../shared/sha256.js';

/**
 * Prüfen: whether a PDF is an unchanged sealed document of ours. The file's SHA-256 finds
 * the envelope whose sealed PDF it is; its signature is checked in any case, so that a changed copy of
 * our PDF is told apart from a PDF that was never ours.
 */
export class SealedPdfCheck {
  constructor(
    private readonly deps: {
      db: Db;
      /** The fingerprint of the seal this server signs with now. */
      currentSeal: string;
    },
  ) {}

  async check(pdf: Buffer): Promise<SealCheck> {
    const sha256 = sha256Hex(pdf);
    const [signature, envelope, ours] = await Promise.all([
      // The CMS code (pkijs) loads with the first check, not at the server's start.
      import('./seal-signature.js').then(({ readPdfSignature }) => readPdfSignature(pdf)),
      this.envelopeSealedAs(sha256),
      this.knownSeals(),
    ]);
    const seal = signature.found
      ? {
          commonName: signature.commonName,
          valid: signature.valid,
          coversWholeFile: signature.coversWholeFile,
        }
      : null;
    return { verdict: verdict(), sha256, signature: seal, envelope: envelope ?? null };

    function verdict(): SealCheckVerdict {
      // The bytes we stored when sealing: nothing else can have this SHA-256.
      if (envelope) return 'sealed';
      if (!signature.found) return 'unsealed';
      if (!signature.fingerprint || !ours.has(signature.fingerprint)) return 'other_signature';
      return signature.valid && signature.coversWholeFile ? 'unknown_envelope' : 'changed';
    }
  }

  private seals: Promise<Set<string>> | undefined;

  /**
   * The seals of this installation: the current one, and the self-signed one made on the first start
   * (one row, never changed: read once).
   */
  private knownSeals(): Promise<Set<string>> {
    this.seals ??= this.deps.db
      .selectFrom('seal_certificate')
      .select('fingerprint')
      .execute()
      .then((stored) => new Set([this.deps.currentSeal, ...stored.map((s) => s.fingerprint)]))
      .catch((error: unknown) => {
        // The database was not reachable: the next check asks again.
        this.seals = undefined;
        throw error;
      });
    return this.seals;
  }

  private async envelopeSealedAs(sha256: string): Promise<SealCheck['envelope'] | undefined> {
    const { db } = this.deps;
    const envelope = await db
      .selectFrom('envelopes')
      .innerJoin('documents', 'documents.id', 'envelopes.document_id')
      .select([
        'envelopes.id',
        'envelopes.match_id',
        'envelopes.subject',
        'envelopes.completed_at',
        'envelopes.seal_level',
        'documents.file_name',
      ])
      // The current sealed PDF, or one it replaced when its archive timestamp was renewed: a copy
      // mailed before the renewal is as much the envelope's as the one stored now.
      .where((eb) =>
        eb.or([
          eb('envelopes.sealed_sha256', '=', sha256),
          eb(
            'envelopes.id',
            'in',
            eb.selectFrom('sealed_pdf_versions').select('envelope_id').where('sha256', '=', sha256),
          ),
        ]),
      )
      .executeTakeFirst();
    if (!envelope) return undefined;
    const signers = await db
      .selectFrom('envelope_recipients')
      .select(['role', 'name', 'email', 'signed_at'])
      .where('envelope_id', '=', envelope.id)
      .where('role', '<>', 'CC')
      .orderBy('position')
      .execute();
    return {
      id: envelope.id,
      matchId: envelope.match_id,
      subject: envelope.subject,
      fileName: envelope.file_name,
      completedAt: envelope.completed_at?.toISOString() ?? null,
      sealLevel: envelope.seal_level,
      signers: signers.map((s) => ({
        role: s.role,
        name: s.name,
        email: s.email,
        signedAt: s.signed_at?.toISOString() ?? null,
      })),
    };
  }
}
