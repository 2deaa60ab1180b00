import type { EnvelopeSeal, SealLevel, SealProblem } from '@vertragsgenerator/domain';

/** What an envelope row says about its seal. */
export interface SealColumns {
  provider: 'builtin' | 'docusign';
  completed: boolean;
  /** Whether `sealed_pdf` is stored. */
  sealed: boolean;
  seal_level: SealLevel | null;
  seal_error: string | null;
}

/**
 * The seal of an envelope as /signaturen and the history show it; null unless it is completed. A
 * completed envelope without its PDF is pending, with the reason its last attempt failed.
 */
export function envelopeSeal(row: SealColumns): EnvelopeSeal | null {
  if (!row.completed) return null;
  if (!row.sealed) {
    return {
      state: 'pending',
      problem: row.seal_error === null ? null : sealProblem(row.seal_error, row.provider),
    };
  }
  if (row.provider === 'docusign') return { state: 'docusign' };
  return { state: 'sealed', level: row.seal_level };
}

/** A timestamp authority answered, but not with a token we embed (timestamp-authority.ts's reasons). */
const TIMESTAMP_ANSWER_REFUSED =
  /RFC-3161|abgelehnt \(Status|enthält keinen Zeitstempel|keine Zeitangabe|Zeitstempel gilt|Nonce|Zertifikat der TSA|Signatur des Zeitstempels|Antwort ist zu groß/;

/** The long-term evidence could not be gathered: certificates, revocation answers (document-timestamp.ts, @libpdf/core). */
const VALIDATION_DATA =
  /revocation data|certificate chain|chain incomplete|LTV|TSA certificate|signer certificate|document timestamp/i;

/**
 * Why the last sealing attempt failed, read from the error the sealer recorded (its message, which is
 * English or German and may name internal addresses: the user sees only the problem it maps to).
 */
export function sealProblem(error: string, provider: 'builtin' | 'docusign'): SealProblem {
  if (provider === 'docusign') return 'docusign';
  if (error.includes('Kein gültiger Zeitstempel')) {
    // Several authorities may be configured: one that answered wrongly says more than one that was down.
    return TIMESTAMP_ANSWER_REFUSED.test(error) ? 'timestamp_invalid' : 'timestamp_unreachable';
  }
  if (error.startsWith('LibreOffice')) return 'contract_pages';
  if (VALIDATION_DATA.test(error)) return 'validation_data';
  return 'other';
}
