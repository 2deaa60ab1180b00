import type { SignWarning, TimestampAuthority } from '@libpdf/core';
import { RevocationData } from './revocation.js';
import type { Timestamp, TimestampAuthorities } from './timestamp-authority.js';

/** What B-T and above need: the authorities, and how early an archive timestamp is renewed. */
export interface Timestamping {
  authorities: TimestampAuthorities;
  renewDaysBefore: number;
}

/** A PDF with its archive timestamp: always B-LTA, renewed by `renewBy`. */
export interface ArchivedPdf {
  pdf: Buffer;
  level: 'B-LTA';
  renewBy: Date;
}

/** The long-term level could not be reached; the seal or renewal is tried again later. */
export class LongTermValidationError extends Error {
  override name = 'LongTermValidationError';
}

/** Room for a document timestamp token with the TSA's chain. */
const DOCUMENT_TIMESTAMP_ROOM = 16_384;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * B-LT and B-LTA over a signed PDF, as incremental updates that leave every earlier byte alone: the
 * certificates of every signature and timestamp in it and their revocation data in the DSS, then a
 * document timestamp (/DocTimeStamp, ETSI.RFC3161) over the whole. The same step renews an archived PDF's evidence before its last timestamp's
 * certificate expires. @libpdf/core writes the PDF structures; the tokens come from our checked client.
 */
export async function archiveTimestamp(pdf: Uint8Array, timestamping: Timestamping): Promise<ArchivedPdf> {
  const { PDF } = await import('@libpdf/core');
  const revocation = new RevocationData(timestamping.authorities.timeoutMs);
  const document = await PDF.load(pdf);
  const validation = await document.addValidationData({ revocationProvider: revocation });
  let last: Timestamp | undefined;
  const authority: TimestampAuthority = {
    async timestamp(digest, algorithm) {
      if (algorithm !== 'SHA-256') throw new Error(`unexpected digest ${algorithm}`);
      last = await timestamping.authorities.timestamp(digest);
      return last.token;
    },
  };
  // No DSS after the document timestamp: it is the last thing in the file and covers all of it. Its own
  // TSA's chain is in the DSS already where the signature's timestamp came from the same authority, and
  // goes in with the next renewal otherwise, as B-LTA augments evidence one timestamp at a time.
  const stamped = await document.addTimestamp({
    timestampAuthority: authority,
    longTermValidation: false,
    estimatedSize: DOCUMENT_TIMESTAMP_ROOM,
  });
  const problems = [...validation.warnings, ...stamped.warnings].filter(missingEvidence);
  if (problems.length > 0 || revocation.missing.length > 0) {
    throw new LongTermValidationError(
      [
        ...problems.map((w) => w.message),
        ...revocation.missing.map((subject) => `no revocation data for ${subject}`),
      ].join('; '),
    );
  }
  if (!last) throw new LongTermValidationError('no document timestamp was embedded');
  return {
    pdf: Buffer.from(stamped.bytes),
    level: 'B-LTA',
    renewBy: new Date(last.tsaCertificateNotAfter.getTime() - timestamping.renewDaysBefore * DAY_MS),
  };
}

/** Warnings that mean a chain or its revocation data is not in the DSS; MDP is not ours to worry about. */
function missingEvidence(warning: SignWarning): boolean {
  return warning.code !== 'MDP_VIOLATION';
}
