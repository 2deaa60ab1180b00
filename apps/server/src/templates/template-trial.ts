import {
  BLANK_LINE,
  type CatalogueEntry,
  type ClauseChoice,
  keysOfTemplate,
  type ResolvedMatch,
  TEMPLATE_FIELDS,
  type TemplateData,
} from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import type { CompanyData } from './companies.js';
import { documentFileName } from './file-name.js';
import { type Renderer, TemplateError, type TemplateSource } from './renderer.js';
import { sampleTemplateData } from './samples.js';
import type { TemplateUsage } from './template-usage.js';

export interface TrialSources {
  renderer: Renderer;
  usage: TemplateUsage;
  companyData: CompanyData;
  today: Date;
  /** Places the clauses a template names, as the document generator does; without it they are left out. */
  clauses?: ClausesPlacing;
}

/** What the trial and the upload check need of the clause library (clauses/clause-choice.ts `ClausePlacer`). */
export interface ClausesPlacing {
  place(
    template: TemplateSource,
    entry: CatalogueEntry,
    match: ResolvedMatch,
  ): Promise<{ template: TemplateSource; choices: ClauseChoice[] }>;
  /** Per placed clause that the library cannot give: its key and why, in German. */
  problems(template: TemplateSource): Promise<{ key: string; message: string }[]>;
}

/** One catalogue key rendered from a template version with a deal's data, as the form would fill it. */
export interface TrialDocument {
  entry: CatalogueEntry;
  fileName: string;
  /** Null when the key could not be rendered (`error` says why). */
  content: Buffer | null;
  /** The dictionary fields the document shows as a blank line: the deal has no value for them. */
  blankFields: string[];
  /** Signature anchors of the key's signing parties that the document lacks: it cannot be signed. */
  missingAnchors: string[];
  /** The clauses the template places, each with what this deal gets and why. */
  clauses: ClauseChoice[];
  error: string | null;
}

/**
 * Renders every catalogue key that uses a template version (or just `onlyKey`) with a match, one
 * after the other through the render pool: what legal staff try a version on before publishing it,
 * and how the upload check finds signature blocks that went missing.
 */
export async function tryTemplate(
  template: TemplateSource,
  match: ResolvedMatch,
  sources: TrialSources,
  onlyKey?: string,
): Promise<TrialDocument[]> {
  const entries = keysOfTemplate(template.name).filter((entry) => !onlyKey || entry.key === onlyKey);
  const documents: TrialDocument[] = [];
  for (const entry of entries) {
    const data = sampleTemplateData(entry, match, sources.companyData, sources.today);
    const fileName = documentFileName(entry, data);
    try {
      const placed = sources.clauses
        ? await sources.clauses.place(template, entry, match)
        : { template, choices: [] };
      const { content } = await sources.renderer.render(placed.template, data);
      documents.push({
        entry,
        fileName,
        content,
        blankFields: blankFields(sources.usage, template, data),
        missingAnchors: missingAnchors(content, data),
        clauses: placed.choices,
        error: null,
      });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      documents.push({
        entry,
        fileName,
        content: null,
        blankFields: [],
        missingAnchors: [],
        clauses: [],
        error: error.message,
      });
    }
  }
  return documents;
}

function blankFields(usage: TemplateUsage, template: TemplateSource, data: TemplateData): string[] {
  const values = data as unknown as Record<string, unknown>;
  return [...usage.shownFields(template, data)]
    .filter((name) => TEMPLATE_FIELDS[name].kind === 'text' && values[name] === BLANK_LINE)
    .sort();
}

/** Every anchor of the document's signature blocks must be in its text, or nobody can sign there. */
function missingAnchors(content: Buffer, data: TemplateData): string[] {
  const anchors = data.unterschriften.flatMap((block) => [
    block.ankerSignatur,
    block.ankerDatum,
    block.ankerName,
  ]);
  if (anchors.length === 0) return [];
  const zip = new PizZip(content);
  const text = zip
    .file(/^word\/[^/]+\.xml$/)
    .map((part) => part.asText())
    .join('');
  return anchors.filter((anchor) => !text.includes(anchor));
}
