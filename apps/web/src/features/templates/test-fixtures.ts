import type {
  TemplateComparison,
  TemplateDetail,
  TemplateMarks,
  TemplateSummary,
  TemplateTrial,
  TemplateVersion,
} from '@vertragsgenerator/domain';
import { savedVersion } from '@/test/version-library';

/** Templates and versions as the server answers them, for the template library's page tests. */

export const offerSummary: TemplateSummary = {
  name: 'angebot-de.docx',
  families: ['Angebot'],
  keys: ['angebot-wm', 'angebot-we'],
  publishedVersion: 1,
  publishedBy: 'Vorlagenordner',
  publishedAt: '2026-11-20T08:00:00Z',
  drafts: 2,
};

const version = (
  fields: Partial<TemplateVersion> & Pick<TemplateVersion, 'version' | 'status'>,
): TemplateVersion => ({
  ...savedVersion,
  sha256: 'a'.repeat(64),
  size: 14_235,
  ...fields,
});

export const publishedVersion = version({
  version: 1,
  status: 'veröffentlicht',
  comment: 'Aus dem Vorlagenordner übernommen',
  createdBy: 'Vorlagenordner',
  createdAt: '2026-11-20T08:00:00Z',
  publishedAt: '2026-11-20T08:00:00Z',
  publishedBy: 'Vorlagenordner',
});
export const misspeltDraft = version({
  version: 2,
  status: 'Entwurf',
  comment: 'Tippfehler',
  problems: [
    {
      place: 'Haupttext',
      tag: '{angebotStundensaz}',
      message: 'Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md).',
      suggestion: '{angebotStundensatz}',
    },
  ],
});
export const cleanDraft = version({ version: 3, status: 'Entwurf', comment: 'Bindefrist sechs Wochen' });

export const offerWithDrafts: TemplateDetail = {
  ...offerSummary,
  versions: [misspeltDraft, publishedVersion],
};
export const offerWithCleanDraft: TemplateDetail = {
  ...offerSummary,
  versions: [cleanDraft, misspeltDraft, publishedVersion],
};

export const comparison: TemplateComparison = {
  base: 1,
  version: 3,
  paragraphs: [
    { change: 'kept', parts: [{ text: 'Sehr geehrte Damen und Herren,', change: 'kept' }] },
    { change: 'kept', parts: [{ text: '1. Projekt und Leistungsumfang', change: 'kept' }] },
    {
      change: 'changed',
      parts: [
        { text: 'An dieses Angebot halten wir uns ', change: 'kept' },
        { text: 'vier', change: 'removed' },
        { text: 'sechs', change: 'added' },
        { text: ' Wochen gebunden.', change: 'kept' },
      ],
    },
    { change: 'added', parts: [{ text: 'Neuer Absatz zur Verfügbarkeit.', change: 'added' }] },
    { change: 'kept', parts: [{ text: 'Mit freundlichen Grüßen', change: 'kept' }] },
  ],
};

export const trial: TemplateTrial = {
  matchId: 'PL-10001',
  documents: [
    {
      key: 'angebot-wm',
      fileName: 'PL-10001 Angebot Elbwerk Logistik AG.docx',
      blankFields: [{ name: 'einsatzort', description: 'Einsatzort' }],
      clauses: [
        {
          key: 'haftung',
          name: 'Haftung',
          chosen: { key: 'haftung', version: 2, variant: 'Schweiz', rule: 'land = CH' },
          reason: 'Regel „land = CH“ trifft zu',
        },
        { key: 'schweizer-recht', name: 'Schweizer Recht', chosen: null, reason: 'Keine Regel trifft zu' },
      ],
      error: null,
    },
    {
      key: 'angebot-we',
      fileName: 'PL-10001 Angebot Elbwerk Logistik AG (WE).docx',
      blankFields: [],
      clauses: [],
      error: null,
    },
  ],
};

export const liabilityParagraph =
  'Haftung: Wir haften unbeschränkt für Vorsatz und grobe Fahrlässigkeit. Für leichte Fahrlässigkeit haften wir nur bei Verletzung einer wesentlichen Vertragspflicht, begrenzt auf den vorhersehbaren, vertragstypischen Schaden.';
export const clientProtectionParagraph =
  'Kundenschutz: {kundeName} wird während der Laufzeit und zwölf Monate danach keine Beraterinnen oder Berater, die wir vorgestellt haben, unmittelbar oder über Dritte beauftragen.';

/** Version 3's paragraphs, the liability clause marked. */
export const marks: TemplateMarks = {
  paragraphs: [
    'Sehr geehrte Damen und Herren,',
    'An dieses Angebot halten wir uns sechs Wochen gebunden.',
    liabilityParagraph,
    clientProtectionParagraph,
    'Mit freundlichen Grüßen',
  ],
  marks: [{ paragraph: liabilityParagraph, label: 'Haftung' }],
};
