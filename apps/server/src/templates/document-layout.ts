import { createRequire } from 'node:module';
import { type RenderedPart, type TemplateEntry, writeDocx } from './docx-zip.js';

/**
 * A template version rendered once for a shape of data, with holes where the text values go: the
 * next document of that shape is the layout's text with its values put in, escaped as docxtemplater
 * escapes them, and zipped (`fillLayout`). Filling takes a fraction of a millisecond where
 * docxtemplater took 1.3–3.5 ms to fill the parsed template again (docs/performance.md), so documents
 * of a known shape are written in the server's thread and the render threads only lay out new shapes.
 *
 * The shape is everything of the data that decides what docxtemplater renders besides the text
 * itself: which values are there, which are empty (a section over an empty text is left out), how
 * many items a list has, the booleans, and which lines of each text are empty (a line break becomes a
 * break in the run, an empty line an empty text element). docxtemplater treats a non-empty text only
 * as "true" or as text to print, so two data of one shape render the same but for the printed text. A
 * layout holds no personal data: the values are marks when it is made.
 */

// Characters XML 1.0 cannot carry (control characters other than tab and newline, lone surrogates,
// U+FFFE, U+FFFF) and the C1 controls Word shows as boxes. A CRM export may hold any of them; Word
// refuses a file that contains one.
const NOT_IN_XML = /(?![\t\n])\p{Cc}|[\uFFFE\uFFFF]|\p{Surrogate}/gu;

/** Every text value as Word can show it: line breaks as `\n` (docxtemplater turns them into breaks). */
export function xmlSafe<T>(value: T): T {
  if (typeof value === 'string') {
    return value.replace(/\r\n?/g, '\n').replace(NOT_IN_XML, '') as T;
  }
  if (Array.isArray(value)) return value.map(xmlSafe) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, xmlSafe(item)])) as T;
  }
  return value;
}

/** A mark for the value's `n`th line: C1 controls, which `xmlSafe` removes from every value. */
const MARK_START = '\u0080';
const MARK_END = '\u0081';
const MARK = /\u0080(\d+)\u0081/g;

export interface DataShape {
  /** The shape as text: equal for two data exactly when they render alike but for their text. */
  key: string;
  /** Every non-empty line of every text, in the order of the marks. */
  lines: string[];
  /** The data with each of those lines replaced by its mark, for laying out the shape. */
  marked: unknown;
}

/** The shape of template data that `xmlSafe` has cleaned (no C1 controls in any text). */
export function shapeOf(data: object): DataShape {
  const key: string[] = [];
  const lines: string[] = [];
  const walk = (value: unknown, inList: boolean): unknown => {
    if (typeof value === 'string') {
      // A list of texts makes each text the scope of its item, where a tag could read its properties
      // (`length`): such a text is part of the shape, not a hole.
      if (value === '' || inList) {
        key.push(JSON.stringify(value));
        return value;
      }
      // An empty line is shape: docxtemplater writes its run's text as an empty element (`<w:t/>`).
      const split = value.split('\n');
      key.push(`t${split.map((line) => (line ? '1' : '0')).join('')}`);
      return split.map((line) => (line ? `${MARK_START}${lines.push(line) - 1}${MARK_END}` : '')).join('\n');
    }
    if (Array.isArray(value)) {
      key.push(`[${value.length}`);
      const items = value.map((item) => walk(item, true));
      key.push(']');
      return items;
    }
    if (value !== null && typeof value === 'object') {
      key.push('{');
      const fields: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(value)) {
        key.push(`${JSON.stringify(name)}:`);
        fields[name] = walk(field, false);
      }
      key.push('}');
      return fields;
    }
    // Booleans, numbers, null and undefined print as themselves or decide a section: all shape.
    key.push(String(value));
    return value;
  };
  const marked = walk(data, false);
  return { key: key.join(','), lines, marked };
}

/** Whether a template's text holds the mark's first character, so that marks could not be found again. */
export const holdsMarkCharacter = (text: string) => text.includes(MARK_START);

/** A part of a laid-out document, as the render thread sends it. */
export type LayoutPart =
  | { name: string; kind: 'folder' }
  /** The template's part of that name, unchanged: its compressed bytes are copied. */
  | { name: string; kind: 'as-in-template' }
  /** Text with holes: `texts` around `holes`, one more text than holes; each hole a line's index. */
  | { name: string; kind: 'filled'; texts: string[]; holes: number[] };

/** The parts of a document of one shape, in the order of the zip. */
export interface DocumentLayout {
  parts: LayoutPart[];
}

/** A rendered part's text cut at its marks. */
export function holesOf(name: string, text: string): LayoutPart {
  const texts: string[] = [];
  const holes: number[] = [];
  let from = 0;
  for (const mark of text.matchAll(MARK)) {
    texts.push(text.slice(from, mark.index));
    holes.push(Number(mark[1]));
    from = mark.index + mark[0].length;
  }
  texts.push(text.slice(from));
  return { name, kind: 'filled', texts, holes };
}

/** A layout ready to fill: its texts as UTF-8, the template's parts looked up. */
export type PreparedLayout = (
  | { name: string; content: null }
  | { name: string; unchanged: TemplateEntry }
  | { name: string; texts: Buffer[]; holes: number[] }
)[];

/** A layout's texts encoded once, and its unchanged parts found in the template's zip. */
export function prepareLayout(layout: DocumentLayout, template: Map<string, TemplateEntry>): PreparedLayout {
  return layout.parts.map((part) => {
    if (part.kind === 'folder') return { name: part.name, content: null };
    if (part.kind === 'filled') {
      return {
        name: part.name,
        texts: part.texts.map((text) => Buffer.from(text, 'utf8')),
        holes: part.holes,
      };
    }
    const unchanged = template.get(part.name);
    if (!unchanged) throw new Error(`the template has no part ${part.name}`);
    return { name: part.name, unchanged };
  });
}

/** The bytes a prepared layout keeps: what a cache of layouts counts. */
export const layoutBytes = (layout: PreparedLayout) =>
  layout.reduce(
    (sum, part) => sum + ('texts' in part ? part.texts.reduce((s, t) => s + t.length, 0) : 0),
    100,
  );

const { utf8ToWord } = createRequire(import.meta.url)('docxtemplater/js/doc-utils.js') as {
  utf8ToWord: (text: string) => string;
};

/**
 * The DOCX of a layout with the data's lines in its holes, each escaped for XML as docxtemplater
 * escapes a value. Changed parts are dated now, as docxtemplater dates what it writes.
 */
export function fillLayout(layout: PreparedLayout, lines: string[], now = new Date()): Uint8Array {
  const escaped = lines.map((line) => Buffer.from(utf8ToWord(line), 'utf8'));
  return writeDocx(
    layout.map((part): RenderedPart => {
      if ('unchanged' in part)
        return { name: part.name, content: null, date: now, unchanged: part.unchanged };
      if (!('texts' in part)) return { name: part.name, content: null, date: now };
      const pieces: Buffer[] = [part.texts[0] as Buffer];
      part.holes.forEach((hole, i) => {
        const line = escaped[hole];
        // A layout is only filled with the lines of its own shape, which has every hole.
        if (!line) throw new Error(`the data has no line ${hole} for ${part.name}`);
        pieces.push(line, part.texts[i + 1] as Buffer);
      });
      return { name: part.name, content: Buffer.concat(pieces), date: now };
    }),
  );
}
