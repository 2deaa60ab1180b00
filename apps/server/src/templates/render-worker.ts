import type { TemplateData } from '@vertragsgenerator/domain';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { sha256Hex } from '../shared/sha256.js';
import { type DocumentLayout, shapeOf, xmlSafe } from './document-layout.js';
import { layoutParsed, type ParsedTemplate, parseTemplate, renderParsed } from './docx-template.js';
import { type TemplateProblem, templateProblems } from './template-problems.js';

/** Runs in a piscina worker thread: rendering is CPU work that must not block the event loop. */

export interface RenderTask {
  /**
   * One template version: the SHA-256 of its bytes, the key of the parsed form each thread keeps, and
   * the bytes themselves only when the thread has answered that it does not hold that version
   * (`templateNeeded`). A thread holds the few versions in use, so most documents carry no template.
   */
  template: { sha256: string; content?: Uint8Array };
  data: TemplateData;
}

/**
 * Template errors come back as a value, not as a thrown error: what crosses the thread boundary as
 * an exception loses its properties, and a rejected task means the pool itself failed.
 */
export type RenderOutcome =
  /** The layout of the data's shape, which the calling thread fills with the data (document-layout.ts). */
  | { ok: true; layout: DocumentLayout }
  /** The document itself, from a template no layout can be made of. */
  | { ok: true; content: Uint8Array }
  | { ok: false; problems: TemplateProblem[] }
  /** The thread does not hold the version and was not given its bytes: ask again with them. */
  | { ok: false; templateNeeded: true };

/**
 * Parsed templates by SHA-256, kept between documents: a version never changes, so nothing goes stale,
 * and a newly published version is simply another entry. The catalogue's seven templates are in use at
 * a time, besides a version being tried; the one used longest ago goes when more are held (a Map
 * iterates in insertion order, and a use moves its entry to the end). A parsed template takes 0.6–1.5
 * MiB of the thread's heap: keeping every version of a day's publishing in each of three threads
 * (formerly the first 32 parsed) grew the server by tens of MiB over the soak.
 */
export const PARSED_TEMPLATES_KEPT = 10;
const parsedTemplates = new Map<string, ParsedTemplate>();

/**
 * The piscina task: a rendered document's bytes are transferred to the calling thread, not copied
 * (the thread gives up its own buffer, which it does not need any more).
 */
export default async function render(task: RenderTask): Promise<RenderOutcome> {
  const outcome = renderDocument(task);
  if (!outcome.ok || !('content' in outcome) || !ownsItsBuffer(outcome.content)) return outcome;
  // piscina's protocol for a result with something to transfer: the value to answer and the list of
  // what to transfer with it. The calling thread receives the plain outcome.
  return move({ [transferableSymbol]: outcome.content.buffer, [valueSymbol]: outcome } as never) as never;
}

/** The task done in this thread (the piscina task without the transfer; the benchmark's in-process case). */
export function renderDocument({ template, data }: RenderTask): RenderOutcome {
  try {
    let parsed = parsedTemplates.get(template.sha256);
    if (parsed) {
      parsedTemplates.delete(template.sha256);
      parsedTemplates.set(template.sha256, parsed);
    } else {
      if (!template.content) return { ok: false, templateNeeded: true };
      parsed = parseTemplate(template.content);
      // Kept under the SHA-256 of the bytes as received, not as claimed: bytes that do not match their
      // claimed SHA-256 can never be served for another version, only rendered this once.
      remember(sha256Hex(template.content), parsed);
    }
    const safe = xmlSafe(data);
    const layout = layoutParsed(parsed, shapeOf(safe).marked as object);
    return layout ? { ok: true, layout } : { ok: true, content: renderParsed(parsed, safe) };
  } catch (error) {
    // Dropped after an error so that no broken state is reused.
    parsedTemplates.delete(template.sha256);
    return { ok: false, problems: templateProblems(error) };
  }
}

function remember(sha256: string, parsed: ParsedTemplate): void {
  parsedTemplates.set(sha256, parsed);
  if (parsedTemplates.size > PARSED_TEMPLATES_KEPT) {
    parsedTemplates.delete(parsedTemplates.keys().next().value as string);
  }
}

/** Only a buffer that holds nothing but the document may be given away (not a slice of a shared pool). */
const ownsItsBuffer = (content: Uint8Array) =>
  content.byteOffset === 0 &&
  content.byteLength === content.buffer.byteLength &&
  !(content.buffer instanceof SharedArrayBuffer);
