import { conflict } from '../shared/http-error.js';
import type { CertificateRound } from './certificate.js';
import type { Executor } from './envelopes-repository.js';

/**
 * What signing needs to know of a document's negotiation with the counterparty (reviews/), read from its
 * tables: negotiation builds on signing, not the other way round.
 */

/**
 * An envelope does not go out while its document is with the counterparty for review: the text may still
 * change, and the signers would sign what legal has not agreed to.
 */
export async function assertNotUnderReview(documentId: string, trx: Executor): Promise<void> {
  const out = await trx
    .selectFrom('review_rounds as o')
    .innerJoin('reviews as r', 'r.id', 'o.review_id')
    .select('o.number')
    .where('r.document_id', '=', documentId)
    .where('o.state', '=', 'sent')
    .executeTakeFirst();
  if (out) {
    throw conflict(
      `Der Vertrag liegt in Runde ${out.number} bei der Gegenseite zur Prüfung. Warte auf ihre Rückmeldung oder beende die Verhandlung, bevor du ihn zur Unterschrift sendest.`,
    );
  }
}

/**
 * The negotiation rounds of the envelope's document, for its certificate: what went to the counterparty
 * and what came back, each version with its SHA-256. Withdrawn rounds are left out: nothing of them counts.
 */
export async function negotiationRounds(documentId: string, trx: Executor): Promise<CertificateRound[]> {
  const rows = await trx
    .selectFrom('review_rounds as o')
    .innerJoin('reviews as r', 'r.id', 'o.review_id')
    .select([
      'o.number',
      'o.sent_at',
      'o.sent_version',
      'o.sent_sha256',
      'o.returned_at',
      'o.returned_by',
      'o.returned_version',
      'o.returned_sha256',
    ])
    .where('r.document_id', '=', documentId)
    .where('o.state', '!=', 'withdrawn')
    .orderBy('o.number')
    .execute();
  return rows.map((row) => ({
    number: row.number,
    sent: { at: row.sent_at, version: row.sent_version, sha256: row.sent_sha256 },
    returned: row.returned_at
      ? {
          at: row.returned_at,
          by: row.returned_by ?? '',
          version: row.returned_version,
          sha256: row.returned_sha256,
        }
      : null,
  }));
}
