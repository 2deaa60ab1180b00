import { COUNTERSIGNER_ROLE, catalogueEntry, FAMILY_TITLES } from '@vertragsgenerator/domain';
import type { Transaction } from 'kysely';
import { AuditLog } from '../../admin/audit-log.js';
import { CountersignatureSettings } from '../../admin/countersignature-settings.js';
import type { Database } from '../../db/schema.js';

/**
 * The start of the history entry of a DocuSign envelope that went out without the company's
 * countersigner although its document family needs one; the metric
 * `docusign_envelopes_without_countersignature` counts the envelopes with such an entry.
 */
export const WITHOUT_COUNTERSIGNATURE = 'In DocuSign ohne Gegenzeichnung versendet';
/** The same, where the Connect message lists no recipients, so nobody can tell. */
export const COUNTERSIGNATURE_UNCHECKED = 'Gegenzeichnung in DocuSign nicht prüfbar';

/**
 * What the history says of a DocuSign envelope reported sent with the signers' roles `signerRoles`
 * (null: the message lists no recipients); undefined where nothing is missing. DocuSign's sender view
 * replaces ours, and there the sender can remove the countersigner the envelope was created with: the
 * administrators' switch (/verwaltung → Gegenzeichnung) is only known to hold once DocuSign reports
 * who the envelope went to.
 */
export async function countersignatureGap(
  trx: Transaction<Database>,
  docKey: string,
  signerRoles: readonly string[] | null,
): Promise<string | undefined> {
  if (signerRoles?.includes(COUNTERSIGNER_ROLE)) return undefined;
  const family = catalogueEntry(docKey)?.params.family;
  if (!family) return undefined;
  // Read in the transaction of the event, as a send through our own sender view reads it.
  const settings = new CountersignatureSettings(trx, new AuditLog(trx));
  if (await settings.withoutAllowed(family, trx)) return undefined;
  const needs = `Dokumente der Art „${FAMILY_TITLES[family]}“ verlangen die Gegenzeichnung der Firma`;
  if (signerRoles === null) {
    return (
      `${COUNTERSIGNATURE_UNCHECKED}: Die Connect-Nachricht nennt keine Empfänger (in der Connect-Konfiguration ` +
      `„Include Recipients“ einschalten). ${needs}; bitte in DocuSign prüfen, ob die Firma unterschreibt.`
    );
  }
  return (
    `${WITHOUT_COUNTERSIGNATURE}: Kein Unterzeichner der Rolle „${COUNTERSIGNER_ROLE}“. ${needs}; ` +
    'bitte den Umschlag in DocuSign korrigieren (die Person der Firma als letzte unterschreiben lassen) oder stornieren.'
  );
}
