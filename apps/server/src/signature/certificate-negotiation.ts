import type { CertificateRound } from './certificate.js';
import type { Executor } from './envelopes-repository.js';

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
