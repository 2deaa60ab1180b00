import { TEMPLATE_FIELDS, type TemplateData, type TemplateFieldName } from '@vertragsgenerator/domain';
import type { DXT } from 'docxtemplater';
import { LRUCache } from 'lru-cache';
import { TemplateError, type TemplateSource } from './renderer.js';
import { templateTags } from './template-lint.js';
import { templateProblems } from './template-problems.js';

/** Which fields of the dictionary a template shows: what the documentCheck compares with the match. */
export interface TemplateUsage {
  /**
   * The placeholders of the template that a document with this data shows: a section whose
   * condition does not hold hides its own. Throws a `TemplateError` for a broken template.
   */
  shownFields(template: TemplateSource, data: TemplateData): Set<TemplateFieldName>;
}

export function createTemplateUsage(): TemplateUsage {
  // Parsing a template takes tens of milliseconds; a form asks again with every choice. A version
  // never changes, so its tags are kept by SHA-256 for as long as it is among the recent ones.
  const tagsBySha256 = new LRUCache<string, DXT.Part[][]>({ max: 32 });
  return {
    shownFields(template, data) {
      let parts = tagsBySha256.get(template.sha256);
      if (!parts) {
        try {
          parts = [...templateTags(template.content).values()];
        } catch (error) {
          throw new TemplateError(template.name, templateProblems(error), template.sha256);
        }
        tagsBySha256.set(template.sha256, parts);
      }
      const shown = new Set<TemplateFieldName>();
      for (const part of parts) collectShown(part, data, new Set(), shown);
      return shown;
    },
  };
}

/**
 * Walks the tags as docxtemplater fills them: `{#name}` shows its content for true or a non-empty
 * list, `{^name}` for the opposite; inside a loop, the entry's own fields come first.
 */
function collectShown(
  parts: DXT.Part[],
  data: TemplateData,
  itemFields: ReadonlySet<string>,
  shown: Set<TemplateFieldName>,
): void {
  for (const part of parts) {
    if (part.type !== 'placeholder') continue;
    const name = part.value;
    if (part.module === 'loop') {
      const value = name in data ? data[name as keyof TemplateData] : undefined;
      const holds = Array.isArray(value) ? value.length > 0 : Boolean(value);
      if (holds === Boolean(part.inverted)) continue;
      const loopItem = Array.isArray(value) && !part.inverted ? loopItemFields(name) : itemFields;
      collectShown(part.subparsed ?? [], data, loopItem, shown);
    } else if (!itemFields.has(name) && name in TEMPLATE_FIELDS) {
      shown.add(name as TemplateFieldName);
    }
  }
}

function loopItemFields(name: string): ReadonlySet<string> {
  const field = TEMPLATE_FIELDS[name as TemplateFieldName];
  return new Set('item' in field ? Object.keys(field.item) : []);
}
