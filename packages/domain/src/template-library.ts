import { z } from 'zod';
import { clauseChoiceSchema } from './clause-choices.js';
import { CATALOGUE, type CatalogueEntry, type DocumentFamily } from './documents/catalogue.js';

/**
 * The template library: every template file of the catalogue with numbered versions
 * in the database. Legal staff upload a version, the server checks it at once, they try it against
 * real deals and compare its text with the published one, then publish it or roll back.
 */

/** A version's state: derived from the template's published version, never stored twice. */
export const TEMPLATE_VERSION_STATUSES = ['Entwurf', 'veröffentlicht', 'ersetzt'] as const;
export type TemplateVersionStatus = (typeof TEMPLATE_VERSION_STATUSES)[number];

export const FAMILY_TITLES: Record<DocumentFamily, string> = {
  contract: 'Vertrag',
  termination: 'Kündigung',
  offer: 'Angebot',
  agreement: 'Zusatzvereinbarung',
};

/** What the library calls the documents of an entry: its family; an extension by its own name. */
export function familyTitle(entry: CatalogueEntry): string {
  const { params } = entry;
  return params.family === 'agreement' && params.agreement === 'extension'
    ? 'Verlängerung'
    : FAMILY_TITLES[params.family];
}

/** The catalogue keys rendered from a template file, in catalogue order. */
export function keysOfTemplate(template: string): CatalogueEntry[] {
  return [...CATALOGUE.values()].filter((entry) => entry.template === template);
}

/** What the server's check found in an uploaded version; any one of them blocks publishing. */
export const templateCheckProblemSchema = z.object({
  /** Where in Word: `Haupttext`, `Kopfzeile (header1.xml)`; absent when the whole file is the problem. */
  place: z.string().nullable(),
  /** The placeholder as written, e.g. `{kundeNmae}`. */
  tag: z.string().nullable(),
  message: z.string(),
  /** For an unknown placeholder: the dictionary's closest name, e.g. `{kundeName}`. */
  suggestion: z.string().nullable(),
});
export type TemplateCheckProblem = z.infer<typeof templateCheckProblemSchema>;

export const templateVersionSchema = z.object({
  version: z.number().int(),
  status: z.enum(TEMPLATE_VERSION_STATUSES),
  sha256: z.string(),
  size: z.number().int(),
  comment: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** When it was last made the published version; null for a draft never published. */
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
  publishComment: z.string().nullable(),
  problems: z.array(templateCheckProblemSchema),
});
export type TemplateVersion = z.infer<typeof templateVersionSchema>;

/**
 * A paragraph of a template version marked „Änderung braucht Freigabe“: a document whose text of it differs
 * from what was generated goes to Freigabe (the rule `markedParagraphs`), named by `label`.
 */
export const templateMarkSchema = z.object({
  /** The paragraph's text in the template, placeholders as typed. */
  paragraph: z.string().min(1).max(20_000),
  label: z
    .string({ error: 'Bitte gib dem Absatz einen Namen, z. B. „Haftung“.' })
    .trim()
    .min(1, 'Bitte gib dem Absatz einen Namen, z. B. „Haftung“.')
    .max(60, 'Der Name ist zu lang (höchstens 60 Zeichen).'),
});
export type TemplateMark = z.infer<typeof templateMarkSchema>;

/** GET/PUT /backend/templates/{name}/versions/{version}/marks: the version's paragraphs and its marks. */
export const templateMarksSchema = z.object({
  /** The version's body paragraphs, to choose from. */
  paragraphs: z.array(z.string()),
  marks: z.array(templateMarkSchema),
});
export type TemplateMarks = z.infer<typeof templateMarksSchema>;
export const templateMarksChangeSchema = z.object({
  marks: z.array(templateMarkSchema).max(100, 'Höchstens 100 markierte Absätze.'),
});

export const templateSummarySchema = z.object({
  /** The file name, e.g. `rahmenvertrag-de.docx`: the template's identity in the catalogue. */
  name: z.string(),
  families: z.array(z.string()),
  keys: z.array(z.string()),
  publishedVersion: z.number().int().nullable(),
  publishedBy: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** Versions uploaded after the published one and not published: waiting for review. */
  drafts: z.number().int(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;
export const templateListSchema = z.array(templateSummarySchema);

export const templateDetailSchema = templateSummarySchema.extend({
  /** Newest first. */
  versions: z.array(templateVersionSchema),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

export const publishTemplateSchema = z.object({
  comment: z.string().trim().min(1, 'Bitte kurz beschreiben, was sich ändert.').max(500),
  /**
   * The version published when the user looked: if someone else published meanwhile, the request is
   * refused rather than replacing a version this user has not compared against.
   */
  replaces: z.number().int().nullable(),
});
export type PublishTemplate = z.infer<typeof publishTemplateSchema>;

/** One catalogue key rendered from a version with a deal's data. */
export const templateTrialDocumentSchema = z.object({
  key: z.string(),
  fileName: z.string(),
  /** The dictionary fields the document shows as a blank line: the deal has no value for them. */
  blankFields: z.array(z.object({ name: z.string(), description: z.string() })),
  /** The clauses the template places (`{@klausel:…}`), each with the variant this deal gets and why. */
  clauses: z.array(clauseChoiceSchema),
  /** Why the key could not be rendered; null when it was. */
  error: z.string().nullable(),
});
export const templateTrialSchema = z.object({
  matchId: z.string(),
  documents: z.array(templateTrialDocumentSchema),
});
export type TemplateTrial = z.infer<typeof templateTrialSchema>;

/** A run of text in a compared paragraph: kept, added by the new version, or removed by it. */
export const textChangeSchema = z.object({
  text: z.string(),
  change: z.enum(['kept', 'added', 'removed']),
});
export const paragraphChangeSchema = z.object({
  change: z.enum(['kept', 'added', 'removed', 'changed']),
  parts: z.array(textChangeSchema),
});
export type ParagraphChange = z.infer<typeof paragraphChangeSchema>;
export const templateComparisonSchema = z.object({
  /** The version compared against (the published one by default); null: there is none. */
  base: z.number().int().nullable(),
  version: z.number().int(),
  paragraphs: z.array(paragraphChangeSchema),
});
export type TemplateComparison = z.infer<typeof templateComparisonSchema>;

/** Template files are Word documents of tens of kilobytes; anything near this is not a contract text. */
export const TEMPLATE_MAX_BYTES = 10 * 1024 * 1024;
