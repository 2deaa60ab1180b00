/**
 * The clause library: paragraphs legal keeps once (Haftung, Datenschutz, Schweizer Recht…) in German and
 * English, versioned like templates, placed into templates by a tag and chosen per document by rules on the
 * deal. Every generated document records which version and variant of each clause it holds.
 */
import { z } from 'zod';
import { clauseChoiceSchema } from './clause-choices.js';
import { paragraphChangeSchema, TEMPLATE_VERSION_STATUSES } from './template-library.js';

/** A clause's identity, as its tag names it in a template: `haftung`, `schweizer-recht`. */
export const CLAUSE_KEY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;
const KEY_MESSAGE =
  'Der Schlüssel besteht aus 2 bis 40 Kleinbuchstaben, Ziffern und Bindestrichen und beginnt mit einem Buchstaben, z. B. „haftung“.';
export const clauseKeySchema = z.string({ error: KEY_MESSAGE }).trim().regex(CLAUSE_KEY_PATTERN, KEY_MESSAGE);

/**
 * How a template places a clause: a paragraph holding only this tag. The tag is docxtemplater's raw-XML form,
 * so Word users recognise it as a placeholder; the server replaces the whole paragraph before rendering.
 */
export const clauseTag = (key: string) => `{@klausel:${key}}`;
/** The inner text of a clause tag (without braces), e.g. `@klausel:haftung`; group 1 is the key. */
export const CLAUSE_TAG_INNER = /^@klausel:(.*)$/;

/** A clause text: paragraphs, lists, bold and placeholders in a small markup (docs/templates.md#klauseln). */
export const CLAUSE_TEXT_MAX = 20_000;
const clauseTextSchema = (language: string) =>
  z.string().max(CLAUSE_TEXT_MAX, `Der ${language} Text ist zu lang (höchstens ${CLAUSE_TEXT_MAX} Zeichen).`);

export const clauseVariantSchema = z.object({
  /** How legal names the variant: „Standard“, „Schweiz“, „ab 120 € Stundensatz“. */
  name: z
    .string({ error: 'Bitte gib der Variante einen Namen.' })
    .trim()
    .min(1, 'Bitte gib der Variante einen Namen.')
    .max(60, 'Der Name der Variante ist zu lang (höchstens 60 Zeichen).'),
  /**
   * When the variant applies, in the rule form (`land = CH und partner = kunde`); null or empty: always.
   * The first variant whose rule holds is the document's; none holding leaves the clause out.
   */
  rule: z
    .string({ error: 'Die Regel muss Text sein, z. B. land = CH.' })
    .trim()
    .max(500, 'Die Regel ist zu lang (höchstens 500 Zeichen).')
    .nullable(),
  de: clauseTextSchema('deutsche'),
  en: clauseTextSchema('englische'),
});
export type ClauseVariant = z.infer<typeof clauseVariantSchema>;

/** Whether the person generating decides: never, or with a checkbox ticked or unticked at first. */
export const CLAUSE_OPTIONS = ['always', 'optional-on', 'optional-off'] as const;
export type ClauseOption = (typeof CLAUSE_OPTIONS)[number];
export const CLAUSE_OPTION_LABELS: Record<ClauseOption, string> = {
  always: 'Immer, wenn eine Regel passt',
  'optional-on': 'Wählbar beim Erstellen, vorausgewählt',
  'optional-off': 'Wählbar beim Erstellen, nicht vorausgewählt',
};

/** What a version holds: its variants in order and whether it is optional. */
export const clauseContentSchema = z.object({
  variants: z
    .array(clauseVariantSchema)
    .min(1, 'Eine Klausel braucht mindestens eine Variante.')
    .max(10, 'Höchstens 10 Varianten.'),
  option: z.enum(CLAUSE_OPTIONS, { error: `Wähle, wann die Klausel gilt: ${CLAUSE_OPTIONS.join(', ')}.` }),
});
export type ClauseContent = z.infer<typeof clauseContentSchema>;

/** What the server found in a version; any one of them blocks publishing. */
export const clauseProblemSchema = z.object({
  /** Where: „Variante „Schweiz“, englischer Text“; null for the whole clause. */
  place: z.string().nullable(),
  message: z.string(),
});
export type ClauseProblem = z.infer<typeof clauseProblemSchema>;

export const clauseVersionSchema = z.object({
  version: z.number().int(),
  status: z.enum(TEMPLATE_VERSION_STATUSES),
  content: clauseContentSchema,
  comment: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
  publishComment: z.string().nullable(),
  problems: z.array(clauseProblemSchema),
});
export type ClauseVersion = z.infer<typeof clauseVersionSchema>;

export const clauseSummarySchema = z.object({
  key: z.string(),
  name: z.string(),
  /** Changing its text in a document needs Freigabe, as a marked template paragraph does. */
  needsApproval: z.boolean(),
  publishedVersion: z.number().int().nullable(),
  publishedAt: z.string().nullable(),
  /** Versions saved after the published one and not published. */
  drafts: z.number().int(),
  /** The templates whose published version places it. */
  templates: z.array(z.string()),
});
export type ClauseSummary = z.infer<typeof clauseSummarySchema>;
export const clauseListSchema = z.array(clauseSummarySchema);

/** A running contract whose document holds the clause, with the version it holds. */
export const clauseContractUseSchema = z.object({
  contractId: z.string(),
  matchId: z.string(),
  title: z.string(),
  documentId: z.string(),
  version: z.number().int(),
  variant: z.string(),
  /** True when it holds an older version than the published one. */
  outdated: z.boolean(),
});
export type ClauseContractUse = z.infer<typeof clauseContractUseSchema>;

export const clauseDetailSchema = clauseSummarySchema.extend({
  /** Newest first. */
  versions: z.array(clauseVersionSchema),
  /** Templates placing it in any version, and whether their published version does. */
  usedInTemplates: z.array(
    z.object({ name: z.string(), published: z.boolean(), versions: z.array(z.number()) }),
  ),
  /** Running contracts holding it, those with an older version first. */
  contracts: z.array(clauseContractUseSchema),
});
export type ClauseDetail = z.infer<typeof clauseDetailSchema>;

const comment = z
  .string({ error: 'Bitte kurz beschreiben, was sich ändert.' })
  .trim()
  .min(1, 'Bitte kurz beschreiben, was sich ändert.')
  .max(500, 'Die Beschreibung ist zu lang (höchstens 500 Zeichen).');

/** POST /backend/clauses: a new clause with its first version (a draft). */
export const newClauseSchema = z.object({
  key: clauseKeySchema,
  name: z
    .string({ error: 'Bitte gib der Klausel einen Namen.' })
    .trim()
    .min(1, 'Bitte gib der Klausel einen Namen.')
    .max(80, 'Der Name ist zu lang (höchstens 80 Zeichen).'),
  needsApproval: z.boolean({ error: 'Bitte angeben, ob Änderungen an der Klausel eine Freigabe brauchen.' }),
  content: clauseContentSchema,
  comment,
});
export type NewClause = z.infer<typeof newClauseSchema>;

/** POST /backend/clauses/{key}/versions: a new draft version. */
export const newClauseVersionSchema = z.object({ content: clauseContentSchema, comment });
export type NewClauseVersion = z.infer<typeof newClauseVersionSchema>;

/** PUT /backend/clauses/{key}: the clause's name and approval flag (not versioned, audited). */
export const clauseSettingsSchema = newClauseSchema.pick({ name: true, needsApproval: true });
export type ClauseSettings = z.infer<typeof clauseSettingsSchema>;

/** POST /backend/clauses/{key}/versions/{version}/trial: the version on a deal, in every document placing it. */
export const clauseTrialSchema = z.object({
  matchId: z.string(),
  documents: z.array(
    z.object({
      key: z.string(),
      template: z.string(),
      language: z.enum(['de', 'en']),
      choice: clauseChoiceSchema,
      /** The clause's paragraphs as this document gets them, placeholders filled. */
      paragraphs: z.array(z.string()),
    }),
  ),
});
export type ClauseTrial = z.infer<typeof clauseTrialSchema>;

/** GET …/compare: a version's text against another (the published one by default), per variant and language. */
export const clauseComparisonSchema = z.object({
  base: z.number().int().nullable(),
  version: z.number().int(),
  parts: z.array(
    z.object({
      variant: z.string(),
      language: z.enum(['de', 'en']),
      paragraphs: z.array(paragraphChangeSchema),
    }),
  ),
});
export type ClauseComparison = z.infer<typeof clauseComparisonSchema>;

/** The fields a rule may test, documented for legal beside the rule's input. */
export type RuleFieldKind = 'choice' | 'text' | 'number';
export interface RuleField {
  kind: RuleFieldKind;
  description: string;
  /** For choices: the values, as written in a rule. */
  values?: readonly string[];
}
export const RULE_FIELDS = {
  firma: { kind: 'choice', description: 'Unsere Gesellschaft', values: ['wm', 'we', 'wp'] },
  partner: {
    kind: 'choice',
    description: 'Vertragspartner des Dokuments',
    values: ['kunde', 'projektpartner'],
  },
  dokument: {
    kind: 'choice',
    description: 'Art des Dokuments',
    values: ['vertrag', 'kuendigung', 'angebot', 'zusatzvereinbarung'],
  },
  vertragsart: {
    kind: 'choice',
    description: 'Bei Verträgen: Rahmenvertrag oder Einzelauftrag',
    values: ['rahmenvertrag', 'einzelauftrag'],
  },
  sprache: { kind: 'choice', description: 'Sprache des Dokuments', values: ['de', 'en'] },
  anstellungsart: { kind: 'text', description: 'Anstellungsart aus dem CRM, z. B. "Freiberufler"' },
  land: {
    kind: 'text',
    description: 'Land des Kunden als ISO-Code aus seiner Anschrift, z. B. DE, CH, AT (ohne Land: DE)',
  },
  remoteAnteil: {
    kind: 'number',
    description: 'Remote-Anteil in Prozent aus dem Einsatzort („remote“: 100, „50 % remote“: 50, sonst 0)',
  },
  satz: {
    kind: 'number',
    description:
      'Stundensatz remote in Euro für diesen Vertragspartner: VK beim Kunden, EK beim Projektpartner',
  },
  stunden: { kind: 'number', description: 'Stunden pro Woche' },
} as const satisfies Record<string, RuleField>;
export type RuleFieldName = keyof typeof RULE_FIELDS;
