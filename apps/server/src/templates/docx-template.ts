import { createRequire } from 'node:module';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { BLANK_LINE } from '@vertragsgenerator/domain';
import Docxtemplater, { type DXT } from 'docxtemplater';
import PizZip from 'pizzip';
import { type DocumentLayout, holdsMarkCharacter, holesOf, type LayoutPart } from './document-layout.js';
import { joinUncorruptFor } from './docx-join-uncorrupt.js';
import {
  type RenderedPart,
  readTemplateZip,
  sameContent,
  type TemplateEntry,
  writeDocx,
} from './docx-zip.js';

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
  return compileZip(new PizZip(bytes), modules);
}

function compileZip(zip: PizZip, modules: DXT.Module[]): Docxtemplater<PizZip> {
  return new Docxtemplater(zip, {
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

/** A template parsed once and rendered for every document (`renderParsed`). */
export interface ParsedTemplate {
  doc: Docxtemplater<PizZip>;
  /** The template's zip entries with their compressed bytes; `undefined` leaves the zipping to pizzip. */
  entries: Map<string, TemplateEntry> | undefined;
  /** pizzip's file objects as loaded: a part the rendering replaced is another object. */
  loaded: Map<string, PizZip.ZipObject>;
  /** The parts docxtemplater fills that have no placeholder: whatever the data, they render the same. */
  withoutPlaceholders: Set<string>;
  /**
   * Those of them that rendered as the template has them: docxtemplater renders them no more
   * (`partsAsInTemplate`), and the zip copies them from the template.
   */
  asInTemplate: Set<string>;
  /**
   * Whether layouts can be made of it (document-layout.ts): not when a part docxtemplater fills holds a
   * layout mark's character, or a tag puts its value in as raw XML (`{@…}`), which no escaping repeats.
   */
  layoutable: boolean;
}

export function parseTemplate(bytes: Uint8Array): ParsedTemplate {
  const zip = new PizZip(bytes);
  const loaded = new Map(Object.entries(zip.files));
  const asInTemplate = new Set<string>();
  const doc = compileZip(zip, [fasterJoinUncorrupt(), utf8Output(), partsAsInTemplate(asInTemplate)]);
  const compiled = (doc as unknown as { compiled: Record<string, { postparsed: DXT.Part[] }> }).compiled;
  const withoutPlaceholders = new Set(
    Object.entries(compiled)
      .filter(([, part]) => part.postparsed.every((piece) => piece.type !== 'placeholder'))
      .map(([name]) => name),
  );
  const layoutable = Object.values(compiled).every((part) => layoutableParts(part.postparsed));
  return {
    doc,
    entries: readTemplateZip(bytes),
    loaded,
    withoutPlaceholders,
    asInTemplate,
    layoutable,
  };
}

/**
 * Whether none of the parsed pieces, in a section too, is a raw XML tag or holds a mark's character in
 * the template's own text: docxtemplater has the text in its pieces already, none is inflated again.
 */
function layoutableParts(parts: DXT.Part[]): boolean {
  return parts.every(
    (part) =>
      part.module !== 'rawxml' &&
      !holdsMarkCharacter(part.value ?? '') &&
      layoutableParts(part.subparsed ?? []) &&
      layoutableParts(part.expanded ?? []),
  );
}

/** A document from an already parsed template: the template filled (`fillParsed`), then zipped. */
export function renderParsed(parsed: ParsedTemplate, data: object): Uint8Array {
  const parts = renderedParts(parsed, fillParsed(parsed, data));
  return parts ? writeDocx(parts) : parsed.doc.toUint8Array();
}

/**
 * The layout of a shape (document-layout.ts): the parsed template filled with the shape's marked data,
 * each changed part cut at its marks. `undefined` when the template's zip is one this writer leaves to
 * pizzip or it is not `layoutable`: its documents are rendered whole.
 */
export function layoutParsed(parsed: ParsedTemplate, marked: object): DocumentLayout | undefined {
  if (!parsed.layoutable) return undefined;
  const parts = renderedParts(parsed, fillParsed(parsed, marked));
  if (!parts) return undefined;
  return {
    parts: parts.map(({ name, content, unchanged }): LayoutPart => {
      if (unchanged) return { name, kind: 'as-in-template' };
      if (content === null) return { name, kind: 'folder' };
      return holesOf(
        name,
        Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8'),
      );
    }),
  };
}

/**
 * Fills an already parsed template again. docxtemplater refuses a second `render()` on an instance,
 * but parsing is the largest part of a contract's render time (4.4 of 10 ms), so the worker keeps
 * the parsed instance and resets the per-render state. These are docxtemplater internals: the version
 * is pinned (~3.71) and a test compares every reuse with a fresh parse.
 */
export function fillParsed({ doc }: ParsedTemplate, data: object): PizZip {
  const state = doc as unknown as { rendered: boolean; mapper?: unknown; scopeManagers: object };
  state.rendered = false;
  state.mapper = undefined;
  state.scopeManagers = {};
  return doc.render(data).getZip();
}

/** The filled zip's parts for writing; `undefined` when its template's zip is left to pizzip. */
function renderedParts(parsed: ParsedTemplate, zip: PizZip): RenderedPart[] | undefined {
  const { entries, loaded, withoutPlaceholders, asInTemplate } = parsed;
  if (!entries) return undefined;
  return inZipOrder(Object.values(zip.files)).map((file): RenderedPart => {
    const template = entries.get(file.name);
    if (file.dir) return { name: file.name, content: null, date: file.date };
    // docxtemplater reads parts without changing them (relationships, settings): pizzip keeps the
    // object it loaded, and only a part written again is a new object.
    if (template && (loaded.get(file.name) === file || asInTemplate.has(file.name))) {
      return { name: file.name, content: null, date: file.date, unchanged: template };
    }
    const content = file.asUint8Array();
    if (!template || !sameContent(content, template)) return { name: file.name, content, date: file.date };
    if (withoutPlaceholders.has(file.name)) asInTemplate.add(file.name);
    return { name: file.name, content, date: file.date, unchanged: template };
  });
}

/**
 * Leaves out of the rendering the parts that have no placeholder and rendered as the template has them
 * (settings, document properties, footnotes without fields): they cannot come out otherwise again.
 * They are learnt from the first document, which docxtemplater renders whole: it also adds the folder
 * entries (`word/`, `docProps/`) to the zip, which stay for every later document.
 */
function partsAsInTemplate(names: Set<string>): DXT.Module {
  return {
    name: 'PartsAsInTemplate',
    // After the modules that list the parts to render (the render module, priority 0).
    priority: -1000,
    getRenderedMap: (mapper: Record<string, unknown>) => {
      for (const name of names) delete mapper[name];
      return mapper;
    },
  };
}

/**
 * The parts in the order docxtemplater has pizzip write them: `[Content_Types].xml` and `_rels/.rels`
 * first, where a reader that streams the archive looks for them, then `word/` (`xl/`, `ppt/`), then
 * the rest.
 */
function inZipOrder(files: PizZip.ZipObject[]): PizZip.ZipObject[] {
  const rank = (name: string) =>
    name === '[Content_Types].xml' ? 0 : name === '_rels/.rels' ? 1 : /^(word|xl|ppt)\//.test(name) ? 2 : 3;
  // Array.prototype.sort is stable: within a rank the parts keep pizzip's order.
  return files.sort((a, b) => rank(a.name) - rank(b.name));
}

type JoinUncorrupt = (parts: string[], options: object) => string[];

/**
 * docxtemplater encodes every rendered part to UTF-8 one character at a time in JavaScript and then
 * deletes its parts one by one: 1.5 ms of a contract's render. As the last module, this joins the
 * parts the same way (its own `joinUncorrupt`, which then finds nothing left to do) and lets Node
 * encode them natively; docxtemplater copies a part that is already bytes as it is. The text carries no
 * lone surrogates (render-worker removes them from the data), where the two encoders would differ.
 */
function utf8Output(): DXT.Module {
  return {
    name: 'Utf8Output',
    // docxtemplater orders modules by priority, highest first: this one's postrender must come after
    // every other module's, which expect the parts as text.
    priority: -1000,
    postrender: (parts: (string | Uint8Array)[], options: { joinUncorrupt: JoinUncorrupt }) =>
      // A part that is bytes already (none of our modules makes one) is left to docxtemplater.
      (parts.every((part) => typeof part === 'string')
        ? [Buffer.from(options.joinUncorrupt(parts, options).join(''), 'utf8')]
        : parts) as string[],
  };
}

/** The content types docxtemplater's `joinUncorrupt` treats as Word text (they get a paragraph after a table). */
const WORD_CONTENT_TYPES = (
  createRequire(import.meta.url)('docxtemplater/js/filetypes.js') as { docx: string[] }
).docx;
const joinUncorrupt = joinUncorruptFor(WORD_CONTENT_TYPES);

/**
 * docxtemplater joins the parts of every section, and of every part before writing it, with
 * `options.joinUncorrupt`, which it sets to its own function for each part it renders. As the first
 * module to see every part, this one puts in the equivalent that takes a fraction of the time
 * (docx-join-uncorrupt.ts); the sections' options are copies of the part's, and take it along.
 */
function fasterJoinUncorrupt(): DXT.Module {
  return {
    name: 'FasterJoinUncorrupt',
    // docxtemplater orders modules by priority, highest first: this one must see each part before
    // the loop module renders a section from it.
    priority: 1000,
    render: (_part, options) => {
      (options as unknown as { joinUncorrupt: typeof joinUncorrupt }).joinUncorrupt = joinUncorrupt;
      return null;
    },
  };
}
