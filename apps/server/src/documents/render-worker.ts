import type { TemplateData } from '@vertragsgenerator/domain';
import type Docxtemplater from 'docxtemplater';
import type PizZip from 'pizzip';
import { sha256Hex } from '../sha256.js';
import { compileTemplate, renderParsed } from './docx-template.js';
import { cachedPerFile } from './file-cache.js';
import { type TemplateProblem, templateProblems, unreadableTemplate } from './template-problems.js';

/** Runs in a piscina worker thread: rendering is CPU work that must not block the event loop. */

export interface RenderTask {
  templatePath: string;
  data: TemplateData;
}

/**
 * Template errors come back as a value, not as a thrown error: what crosses the thread boundary as
 * an exception loses its properties, and a rejected task means the pool itself failed.
 */
export type RenderOutcome =
  | { ok: true; content: Uint8Array; templateSha256: string }
  | { ok: false; problems: TemplateProblem[]; templateSha256?: string };

interface LoadedTemplate {
  bytes: Buffer;
  sha256: string;
  /** The parsed template, kept between documents; dropped after an error so no broken state is reused. */
  parsed?: Docxtemplater<PizZip>;
}

/** Template files are read and parsed once per worker, and again when legal staff save a new version. */
const load = cachedPerFile((bytes): LoadedTemplate => ({ bytes, sha256: sha256Hex(bytes) }));

export default async function render({ templatePath, data }: RenderTask): Promise<RenderOutcome> {
  let template: LoadedTemplate;
  try {
    template = await load(templatePath);
  } catch (error) {
    return { ok: false, problems: [unreadableTemplate(error)] };
  }
  try {
    template.parsed ??= compileTemplate(template.bytes);
    const content = renderParsed(template.parsed, xmlSafe(data));
    return { ok: true, content, templateSha256: template.sha256 };
  } catch (error) {
    template.parsed = undefined;
    return { ok: false, problems: templateProblems(error), templateSha256: template.sha256 };
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
