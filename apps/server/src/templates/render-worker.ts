import type { TemplateData } from '@vertragsgenerator/domain';
import { type ParsedTemplate, parseTemplate, renderParsed } from './docx-template.js';
import { type TemplateProblem, templateProblems } from './template-problems.js';

/** Runs in a piscina worker thread: rendering is CPU work that must not block the event loop. */

export interface RenderTask {
  /** One template version: its bytes, and their SHA-256 as the key of the parsed form. */
  template: { sha256: string; content: Uint8Array };
  data: TemplateData;
}

/**
 * Template errors come back as a value, not as a thrown error: what crosses the thread boundary as
 * an exception loses its properties, and a rejected task means the pool itself failed.
 */
export type RenderOutcome = { ok: true; content: Uint8Array } | { ok: false; problems: TemplateProblem[] };

/**
 * Parsed templates by SHA-256, kept between documents: a version never changes, so nothing goes stale,
 * and a newly published version is simply another entry. A few templates are in use at a time; the
 * oldest entry goes when more than this many were parsed (a Map iterates in insertion order).
 */
const PARSED_TEMPLATES_KEPT = 32;
const parsedTemplates = new Map<string, ParsedTemplate>();

export default async function render({ template, data }: RenderTask): Promise<RenderOutcome> {
  try {
    let parsed = parsedTemplates.get(template.sha256);
    if (!parsed) {
      parsed = parseTemplate(template.content);
      parsedTemplates.set(template.sha256, parsed);
      if (parsedTemplates.size > PARSED_TEMPLATES_KEPT) {
        parsedTemplates.delete(parsedTemplates.keys().next().value as string);
      }
    }
    return { ok: true, content: renderParsed(parsed, xmlSafe(data)) };
  } catch (error) {
    // Dropped after an error so that no broken state is reused.
    parsedTemplates.delete(template.sha256);
    return { ok: false, problems: templateProblems(error) };
  }
}

// Characters XML 1.0 cannot carry (control characters other than tab and newline, lone surrogates,
// U+FFFE, U+FFFF) and the C1 controls Word shows as boxes. A CRM export may hold any of them; Word
// refuses a file that contains one.
const NOT_IN_XML = /(?![\t\n])\p{Cc}|[\uFFFE\uFFFF]|\p{Surrogate}/gu;

/** Every text value as Word can show it: line breaks as `\n` (docxtemplater turns them into breaks). */
function xmlSafe<T>(value: T): T {
  if (typeof value === 'string') {
    return value.replace(/\r\n?/g, '\n').replace(NOT_IN_XML, '') as T;
  }
  if (Array.isArray(value)) return value.map(xmlSafe) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, xmlSafe(item)])) as T;
  }
  return value;
}
