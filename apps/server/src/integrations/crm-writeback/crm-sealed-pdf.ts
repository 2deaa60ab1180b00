import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { HttpError, notFound } from '../../shared/http-error.js';
import { sha256Hex } from '../../shared/sha256.js';
import { sealedFileName } from '../../signature/seal/completion-mail.js';

/** The header the HTTP CRM sends the token of its write-back in. */
export const SEALED_PDF_TOKEN_HEADER = 'x-sealed-pdf-token';
/** How long a write-back's token lets the CRM fetch the PDF: a CRM that works through a queue gets to it. */
export const SEALED_PDF_GRANT_DAYS = 7;

/** Where the HTTP CRM fetches the sealed PDF a write-back told it of. */
export const crmSealedPdfPath = (envelopeId: string) => `/backend/crm/envelopes/${envelopeId}/sealed-pdf`;

/** What a write-back keeps of the token it gave the CRM: its SHA-256 and its end, never the token. */
export interface SealedPdfGrant {
  sha256: string;
  expiresAt: string;
}

/** A new token for one write-back (`vgpdf_` and 32 random bytes), and what is kept of it. */
export function newSealedPdfGrant(now: Date): { token: string; grant: SealedPdfGrant } {
  const token = `vgpdf_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + SEALED_PDF_GRANT_DAYS * 24 * 60 * 60_000);
  return { token, grant: { sha256: sha256Hex(token), expiresAt: expiresAt.toISOString() } };
}

const refused = (message: string) => new HttpError(401, 'unauthorized', message);

/**
 * The sealed PDF for the HTTP CRM, which has no webhook endpoint to sign with: each write-back of a
 * completion carries a token of its own (kept only as its SHA-256 with the write-back's steps), valid
 * for `SEALED_PDF_GRANT_DAYS` and only for that envelope. A deleted write-back (retention) takes its
 * token with it.
 */
export class CrmSealedPdfAccess {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async sealedPdf(
    envelopeId: string,
    token: string | undefined,
  ): Promise<{ pdf: Uint8Array; fileName: string }> {
    if (!token || !/^vgpdf_[A-Za-z0-9_-]{43}$/.test(token))
      throw refused(
        `Für das versiegelte PDF fehlt der Schlüssel aus der CRM-Rückmeldung (Header ${SEALED_PDF_TOKEN_HEADER}).`,
      );
    const grant = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(sql<string>`d.progress->'sealedPdfGrant'->>'expiresAt'`.as('expires_at'))
      .where('d.target', '=', 'crm')
      .where('e.type', '=', 'envelope.completed')
      .where(sql<string>`e.payload->'data'->>'envelopeId'`, '=', envelopeId)
      .where(sql<string>`d.progress->'sealedPdfGrant'->>'sha256'`, '=', sha256Hex(token))
      .executeTakeFirst();
    if (!grant) throw refused('Dieser Schlüssel gilt nicht für das versiegelte PDF dieses Umschlags.');
    if (new Date(grant.expires_at).getTime() <= this.now().getTime())
      throw refused(
        `Dieser Schlüssel für das versiegelte PDF ist abgelaufen (er gilt ${SEALED_PDF_GRANT_DAYS} Tage ab der CRM-Rückmeldung).`,
      );
    const row = await this.db
      .selectFrom('envelopes')
      .innerJoin('documents', 'documents.id', 'envelopes.document_id')
      .select(['envelopes.sealed_pdf', 'documents.file_name'])
      .where('envelopes.id', '=', envelopeId)
      .executeTakeFirst();
    if (!row?.sealed_pdf)
      throw notFound(
        'Das versiegelte PDF ist nicht mehr gespeichert (nach einer Aufbewahrungsregel gelöscht).',
      );
    return { pdf: row.sealed_pdf, fileName: sealedFileName(row.file_name) };
  }
}
