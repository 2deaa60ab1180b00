import type { WebhookEventType } from '@vertragsgenerator/domain';
import { CrmSignInRefusedError, CrmTransientError } from '../../matches/crm/crm-client.js';

/** The events the CRM is told of, and the status each gives the contract there (in the CRM's language). */
// Not `document.generated`: a match has many documents (offers, notices), and it has no envelope to
// keep it in order with the contract's status changes.
export const CRM_STATUSES: Partial<Record<WebhookEventType, string>> = {
  'envelope.sent': 'Versendet',
  'envelope.signed': 'Teilweise unterschrieben',
  'envelope.completed': 'Unterschrieben',
  'envelope.declined': 'Abgelehnt',
  'envelope.voided': 'Verworfen',
  'envelope.expired': 'Abgelaufen',
};

export const crmWants = (type: WebhookEventType): boolean => CRM_STATUSES[type] !== undefined;

/** One status change of a match's contract, as the CRM is told of it. */
export interface CrmWriteBack {
  /** The same on every attempt (`crm_<delivery id>`): a CRM may drop a repeat by it. */
  id: string;
  type: WebhookEventType;
  /** The German status, e.g. „Versendet“. */
  status: string;
  /** When it happened (the event's time). */
  at: Date;
  matchId: string;
  envelopeId: string | null;
  /** On completion: the sealed PDF's SHA-256 and the address receivers fetch it from. */
  sealedPdf: { sha256: string; url: string } | null;
  /** The sealed PDF's bytes and file name, read when a writer needs them. */
  loadSealedPdf(): Promise<{ pdf: Uint8Array; fileName: string }>;
}

/** The steps of a write-back already done, kept with its delivery (e.g. the uploaded file's id). */
export type Progress = Record<string, unknown>;

/** Writes one status change to the CRM; `save` keeps a step's result before the next step starts. */
export interface CrmWriter {
  /** Checked at start: what the write-back names exists in the CRM. Throws `ConfigError` if not. */
  check?(): Promise<void>;
  write(
    writeBack: CrmWriteBack,
    progress: Progress,
    save: (progress: Progress) => Promise<void>,
  ): Promise<string>;
}

/**
 * The CRM refused the write-back for a reason another attempt cannot change (the file is too large, the
 * user of the integration lacks a permission, the record is gone). `reason` is German: it is shown in
 * the envelope's history.
 */
export class CrmWritebackRefused extends Error {
  override name = 'CrmWritebackRefused';
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(reason, options);
  }
}

/** Why an attempt did not arrive, in German, and whether another attempt may succeed. */
export function explainFailure(error: unknown): { final: boolean; reason: string } {
  if (error instanceof CrmWritebackRefused) return { final: true, reason: error.reason };
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof CrmSignInRefusedError)
    return { final: false, reason: `Das CRM lehnt die Anmeldung der Anwendung ab (${message}).` };
  if (error instanceof CrmTransientError)
    return {
      final: false,
      reason: `Das CRM ist nicht erreichbar oder antwortet mit einem Fehler (${message}).`,
    };
  return { final: false, reason: `Unerwarteter Fehler beim Schreiben ins CRM (${message}).` };
}
