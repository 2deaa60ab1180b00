import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { BLANK_LINE } from '@vertragsgenerator/domain';
import Docxtemplater, { type DXT } from 'docxtemplater';
import PizZip from 'pizzip';

/** The largest part of a DOCX (its text, a header, an image) that is ever inflated: 64 MB. */
export const MAX_PART_BYTES = 64 * 1024 * 1024;

// pizzip deflates with its bundled JavaScript (pako); Node's zlib does the same in native code,
// 2.8 → 1.3 ms for a contract (bench/, docs/performance.md). Same format, same level.
(PizZip as unknown as { compressions: Record<string, unknown> }).compressions.DEFLATE = {
  magic: '\x08\x00',
  compressInputType: 'uint8array',
  uncompressInputType: 'uint8array',
  compress: (input: Uint8Array, options?: { level?: number }) =>
    deflateRawSync(input, { level: options?.level || constants.Z_DEFAULT_COMPRESSION }),
  // No part of a real template comes near this; a zip bomb stops here instead of filling the memory.
  uncompress: (input: Uint8Array) => inflateRawSync(input, { maxOutputLength: MAX_PART_BYTES }),
};

/**
 * Parses a DOCX template the way the renderer fills it. `templates:lint` compiles with the same
 * options, so that what lint accepts is exactly what renders.
 */
export function compileTemplate(bytes: Uint8Array, modules: DXT.Module[] = []): Docxtemplater<PizZip> {
  return new Docxtemplater(new PizZip(bytes), {
    // A section tag alone in its paragraph removes that paragraph too, not only the tag's text.
    paragraphLoop: true,
    // Multi-line CRM text (task description) keeps its line breaks in Word.
    linebreaks: true,
    // A missing value prints as a line to fill in, never as "undefined". Sections (`module: 'loop'`)
    // must get a falsy value instead: a blank line would show a section whose condition is unknown.
    nullGetter: (part) => (part.module ? '' : BLANK_LINE),
    // Errors are reported as TemplateProblems; docxtemplater's own console dump would duplicate them.
    errorLogging: false,
    modules,
  });
}

/**
 * Renders an already parsed template again. docxtemplater refuses a second `render()` on an instance,
 * but parsing is the largest part of a contract's render time (4.4 of 10 ms), so the worker keeps
 * the parsed instance and resets the per-render state. These are docxtemplater internals: the version
 * is pinned (~3.71) and a test compares every reuse with a fresh parse.
 */
export function renderParsed(doc: Docxtemplater<PizZip>, data: object): Uint8Array {
  const state = doc as unknown as { rendered: boolean; mapper?: unknown; scopeManagers: object };
  state.rendered = false;
  state.mapper = undefined;
  state.scopeManagers = {};
  return doc.render(data).toUint8Array();
}
