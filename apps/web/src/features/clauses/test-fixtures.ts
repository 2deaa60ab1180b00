import type {
  ClauseComparison,
  ClauseDetail,
  ClauseSummary,
  ClauseTrial,
  ClauseVersion,
} from '@vertragsgenerator/domain';
import { savedVersion } from '@/test/version-library';

/** Clauses and versions as the server answers them, for the clause library's page tests. */

export const liabilitySummary: ClauseSummary = {
  key: 'haftung',
  name: 'Haftung',
  needsApproval: true,
  publishedVersion: 1,
  publishedAt: '2026-11-20T08:00:00Z',
  drafts: 1,
  templates: ['rahmenvertrag-de.docx', 'angebot-de.docx'],
};

export const swissLawSummary: ClauseSummary = {
  key: 'schweizer-recht',
  name: 'Schweizer Recht',
  needsApproval: false,
  publishedVersion: null,
  publishedAt: null,
  drafts: 1,
  templates: [],
};

export const standardVariant = {
  name: 'Standard',
  rule: null,
  de: 'Wir haften unbeschränkt für Vorsatz und grobe Fahrlässigkeit.',
  en: 'We are liable without limitation for intent and gross negligence.',
};
const highRate = {
  name: 'Ab 120 €',
  rule: 'satz >= 120',
  de: 'Die Haftung ist auf das Doppelte des Auftragswerts begrenzt.',
  en: 'Liability is limited to twice the order value.',
};

const version = (
  fields: Partial<ClauseVersion> & Pick<ClauseVersion, 'version' | 'status'>,
): ClauseVersion => ({
  ...savedVersion,
  content: { variants: [standardVariant], option: 'always' },
  ...fields,
});

export const publishedVersion = version({
  version: 1,
  status: 'veröffentlicht',
  comment: 'Erste Fassung',
  createdAt: '2026-11-20T07:00:00Z',
  publishedAt: '2026-11-20T08:00:00Z',
  publishedBy: 'legal@demo.local',
  publishComment: 'Von der Rechtsabteilung freigegeben',
});

export const brokenDraft = version({
  version: 2,
  status: 'Entwurf',
  comment: 'Begrenzung bei hohem Satz',
  content: { variants: [{ ...highRate, rule: 'satz >= hoch' }, standardVariant], option: 'always' },
  problems: [
    {
      place: 'Variante „Ab 120 €“, Regel',
      message: '„satz“ ist eine Zahl: vergleiche mit einer Zahl, z. B. satz >= 120.',
    },
    { place: null, message: 'Die englische Fassung nennt {kundeName}, die deutsche nicht.' },
  ],
});

export const cleanDraft = version({
  version: 3,
  status: 'Entwurf',
  comment: 'Begrenzung ab 120 €',
  content: { variants: [highRate, standardVariant], option: 'optional-on' },
});

export const liabilityWithBrokenDraft: ClauseDetail = {
  ...liabilitySummary,
  versions: [brokenDraft, publishedVersion],
  usedInTemplates: [
    { name: 'rahmenvertrag-de.docx', published: true, versions: [3, 4] },
    { name: 'angebot-de.docx', published: false, versions: [5] },
  ],
  contracts: [
    {
      contractId: 'c-current',
      matchId: 'PL-10002',
      title: 'Rahmenvertrag Nordlicht GmbH',
      documentId: 'd-2',
      version: 1,
      variant: 'Standard',
      outdated: false,
    },
    {
      contractId: 'c-old',
      matchId: 'PL-10001',
      title: 'Rahmenvertrag Elbwerk Logistik AG',
      documentId: 'd-1',
      version: 0,
      variant: 'Standard',
      outdated: true,
    },
  ],
};

export const liabilityWithCleanDraft: ClauseDetail = {
  ...liabilityWithBrokenDraft,
  drafts: 2,
  versions: [cleanDraft, brokenDraft, publishedVersion],
};

export const comparison: ClauseComparison = {
  base: 1,
  version: 3,
  parts: [
    {
      variant: 'Ab 120 €',
      language: 'de',
      paragraphs: [{ change: 'added', parts: [{ text: highRate.de, change: 'added' }] }],
    },
    {
      variant: 'Standard',
      language: 'de',
      paragraphs: [
        {
          change: 'changed',
          parts: [
            { text: 'Wir haften ', change: 'kept' },
            { text: 'stets', change: 'removed' },
            { text: 'unbeschränkt', change: 'added' },
            { text: ' für Vorsatz und grobe Fahrlässigkeit.', change: 'kept' },
          ],
        },
      ],
    },
    {
      variant: 'Standard',
      language: 'en',
      paragraphs: [{ change: 'kept', parts: [{ text: standardVariant.en, change: 'kept' }] }],
    },
  ],
};

export const trial: ClauseTrial = {
  matchId: 'PL-10001',
  documents: [
    {
      key: 'de-wm-k-rv-1',
      template: 'rahmenvertrag-de.docx',
      language: 'de',
      choice: {
        key: 'haftung',
        name: 'Haftung',
        chosen: { key: 'haftung', version: 3, variant: 'Ab 120 €', rule: 'satz >= 120' },
        reason: 'Regel „satz >= 120“ trifft zu',
      },
      paragraphs: ['Die Haftung ist auf das Doppelte des Auftragswerts von 48.000 € begrenzt.'],
    },
    {
      key: 'en-wm-p-rv-1',
      template: 'rahmenvertrag-en.docx',
      language: 'en',
      choice: { key: 'haftung', name: 'Haftung', chosen: null, reason: 'Keine Regel trifft zu' },
      paragraphs: [],
    },
  ],
};
