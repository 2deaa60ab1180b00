import {
  BLANK_LINE,
  CATALOGUE,
  type Placeholder,
  type PlaceholderDictionary,
  type ResolvedMatch,
  TEMPLATE_FIELDS,
  type TemplateData,
} from '@vertragsgenerator/domain';
import type { CompanyData } from './companies.js';
import { sampleTemplateData } from './samples.js';

/** A value worth showing as an example: set, and not the blank line a missing value becomes. */
const shown = (value: unknown): value is string | number =>
  (typeof value === 'string' && value.trim() !== '' && value !== BLANK_LINE) || typeof value === 'number';

/**
 * The field dictionary as `/vorlagen/platzhalter` shows it: every placeholder with its
 * meaning, how it is written, and an example — the value the demo match gives it in the first document
 * that has one, for a condition in how many document kinds it holds, for a loop its entries' fields.
 * The data is what the renderer gets, made as `templates:preview` makes it for every catalogue key.
 */
export function placeholderDictionary(
  match: ResolvedMatch | null,
  companyData: CompanyData,
  today: Date,
): PlaceholderDictionary {
  // Without a demo match (a CONFIG_DIR of its own) the placeholders are listed without examples.
  const rendered: TemplateData[] = match
    ? [...CATALOGUE.values()].map((entry) => sampleTemplateData(entry, match, companyData, today))
    : [];
  const valuesOf = (name: string) => rendered.map((data) => (data as Record<string, unknown>)[name]);
  const placeholders: Placeholder[] = Object.entries(TEMPLATE_FIELDS).map(([name, field]) => {
    if (field.kind === 'condition') {
      const holds = valuesOf(name).filter((value) => value === true).length;
      return {
        name,
        kind: field.kind,
        description: field.description,
        syntax: `{#${name}}…{/${name}}`,
        example: rendered.length > 0 ? `ja bei ${holds} von ${rendered.length} Dokumentarten` : null,
        item: [],
      };
    }
    if (field.kind === 'loop') {
      const entries = valuesOf(name).find(
        (value): value is Record<string, unknown>[] => Array.isArray(value) && value.length > 0,
      );
      return {
        name,
        kind: field.kind,
        description: field.description,
        syntax: `{#${name}}…{/${name}}`,
        example: entries ? `${entries.length} Einträge, z. B. im ersten Dokument mit Einträgen` : null,
        item: Object.entries(field.item ?? {}).map(([itemName, description]) => {
          const value = entries?.map((entry) => entry[itemName]).find(shown);
          return {
            name: itemName,
            description,
            syntax: `{${itemName}}`,
            example: value === undefined ? null : String(value),
          };
        }),
      };
    }
    const value = valuesOf(name).find(shown);
    return {
      name,
      kind: field.kind,
      description: field.description,
      syntax: `{${name}}`,
      example: value === undefined ? null : String(value),
      item: [],
    };
  });
  return { matchId: match?.matchId ?? '', placeholders };
}
