import { z } from 'zod';
import { SEAL_LEVELS, type SealLevel } from './seal-check.js';

/**
 * Why a completed envelope's signed PDF is not there yet, from its last failed attempt (the server
 * reads it from the error it recorded; `other` when it cannot tell). The attempt is repeated.
 */
export const SEAL_PROBLEMS = [
  'timestamp_unreachable',
  'timestamp_invalid',
  'validation_data',
  'contract_pages',
  'docusign',
  'other',
] as const;
export type SealProblem = (typeof SEAL_PROBLEMS)[number];

/**
 * The seal of a completed envelope. `sealed`: our seal, at the PAdES level it reached (null: sealed
 * before levels were recorded). `docusign`: DocuSign's sealed document is stored. `pending`: not sealed
 * or fetched yet; `problem` says why the last attempt failed, null before any failed.
 */
export const envelopeSealSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('sealed'), level: z.enum(SEAL_LEVELS).nullable() }),
  z.object({ state: z.literal('docusign') }),
  z.object({ state: z.literal('pending'), problem: z.enum(SEAL_PROBLEMS).nullable() }),
]);
export type EnvelopeSeal = z.infer<typeof envelopeSealSchema>;

/**
 * What each level proves, in words a reader without the standard understands. B-LTA is not called
 * „qualifiziert": that depends on the timestamp authority, which the seal does not know.
 */
export const SEAL_LEVEL_EXPLANATIONS: Record<SealLevel, string> = {
  'B-B': 'Siegel ohne vertrauenswürdige Zeit: Wann versiegelt wurde, bestätigt kein Zeitstempeldienst.',
  'B-T': 'Siegel mit Zeitstempel eines Zeitstempeldienstes.',
  'B-LT': 'Siegel mit Zeitstempel; die Prüfdaten (Zertifikate und Sperrauskünfte) sind im PDF eingebettet.',
  'B-LTA':
    'Siegel mit Zeitstempel und Langzeitnachweis: Die Prüfdaten (Zertifikate und Sperrauskünfte) sind im PDF eingebettet, ein Archivzeitstempel wird vor seinem Ablauf erneuert.',
};

export const SEAL_PROBLEM_TEXTS: Record<SealProblem, string> = {
  timestamp_unreachable: 'Zeitstempeldienst nicht erreichbar',
  timestamp_invalid: 'Zeitstempeldienst liefert keinen gültigen Zeitstempel',
  validation_data: 'Prüfdaten zu den Zertifikaten (Kette, Sperrauskünfte) nicht vollständig abrufbar',
  contract_pages: 'Vertragsseiten konnten nicht als PDF erstellt werden',
  docusign: 'Abruf bei DocuSign fehlgeschlagen',
  other: 'Beim Versiegeln ist ein Fehler aufgetreten',
};

export const sealLevelLabel = (level: SealLevel): string => `PAdES ${level}`;

/** An envelope's seal in words: one line for its state, and what its level proves where it has one. */
export interface SealWords {
  status: string;
  explanation: string | null;
}

/**
 * The words for a seal, the same on /signaturen, in the history and in Prüfen. `provider`: who made the
 * envelope; a DocuSign envelope waits for DocuSign's document, not for our seal.
 */
export function sealWords(seal: EnvelopeSeal, provider: 'builtin' | 'docusign' = 'builtin'): SealWords {
  switch (seal.state) {
    case 'sealed':
      return seal.level
        ? {
            status: `Versiegelt · ${sealLevelLabel(seal.level)}`,
            explanation: SEAL_LEVEL_EXPLANATIONS[seal.level],
          }
        : { status: 'Versiegelt', explanation: null };
    case 'docusign':
      return { status: 'Von DocuSign versiegelt', explanation: null };
    case 'pending': {
      const waiting =
        provider === 'docusign' ? 'Signiertes PDF von DocuSign ausstehend' : 'Siegel ausstehend';
      return {
        status: seal.problem
          ? `${waiting}: ${SEAL_PROBLEM_TEXTS[seal.problem]} – wird erneut versucht`
          : waiting,
        explanation: null,
      };
    }
  }
}
