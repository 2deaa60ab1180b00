/**
 * docxtemplater's `joinUncorrupt` (docxtemplater/js/join-uncorrupt.js, 3.71) with the same result,
 * written to run in a fraction of the time. docxtemplater calls it on the rendered parts of every
 * section and once more on a whole part before writing it: a table cell left without a paragraph gets
 * one, a row without cells and a table without rows are dropped, a table is followed by a paragraph.
 * The original tests each of thousands of parts against each such tag with a fresh string and array per
 * test (`isStarting`): a fifth of filling a contract. Here a part that does not start with `<` (text,
 * almost half of them) is passed over at once, and the tags are compared with prefixes built once.
 * Every branch is the original's, in its order; docx-join-uncorrupt.test.ts compares the two on every
 * part list the templates' sections produce.
 */

type Part = string | Uint8Array;

/** One entry of docxtemplater's `fileTypeConfig.tagShouldContain`. */
export interface TagShouldContain {
  tag: string;
  shouldContain: string[];
  value?: string;
  drop?: boolean;
  dropParent?: string;
}

export interface JoinUncorruptOptions {
  contentType?: string;
  fileTypeConfig: { tagShouldContain?: TagShouldContain[] };
}

/** An element's start and end as the original's `isStarting` and `isEnding` recognise them. */
interface Element {
  /** `<w:tc`: the part starts with it ... */
  start: string;
  /** ... followed by `>`, ` ` or `/`. */
  next: number;
  end: string;
  /** The start's fourth character (`c` of `<w:tc`), compared before the whole start; -1 if shorter. */
  probe: number;
}

const elements = new Map<string, Element>();
function element(name: string): Element {
  let known = elements.get(name);
  if (!known) {
    known = {
      start: `<${name}`,
      next: name.length + 1,
      end: `</${name}>`,
      probe: name.length > 2 ? name.charCodeAt(2) : -1,
    };
    elements.set(name, known);
  }
  return known;
}

const GREATER = '>';
const SPACE = ' ';
const SLASH = '/';
const LESS_THAN = 60;

function isStarting(part: Part, { start, next, probe }: Element): boolean {
  // Most tags differ from the element in their fourth character (`<w:r>`, `<w:p>` from `<w:tc`).
  if (typeof part !== 'string' || (probe !== -1 && part.charCodeAt(3) !== probe) || !part.startsWith(start)) {
    return false;
  }
  const after = part[next];
  return after === GREATER || after === SPACE || after === SLASH;
}

/** The content types docxtemplater counts as Word documents (docxtemplater/js/filetypes.js `docx`). */
export function joinUncorruptFor(docxContentTypes: readonly string[]) {
  return function joinUncorrupt(parts: Part[], options: JoinUncorruptOptions): Part[] {
    const contains = options.fileTypeConfig.tagShouldContain ?? [];
    let currentlyCollecting = -1;
    if (options.contentType !== undefined && docxContentTypes.includes(options.contentType)) {
      addEmptyParagraphAfterTable(parts);
    }
    let startIndex = -1;
    for (let j = 0; j < contains.length; j++) {
      const { tag, shouldContain, value, drop, dropParent } = contains[j] as TagShouldContain;
      const tagElement = element(tag);
      const containedElements = shouldContain.map(element);
      const parentElement = dropParent === undefined ? undefined : element(dropParent);
      let collectedParts: Part[] | null = null;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as Part;
        if (typeof part !== 'string') continue;
        if (part.charCodeAt(0) !== LESS_THAN) {
          // Neither the start nor the end of any element: the original only collects it.
          if (currentlyCollecting === j && collectedParts) collectedParts.push(part);
          continue;
        }
        if (currentlyCollecting === j) {
          if (part === tagElement.end) {
            currentlyCollecting = -1;
            if (parentElement) {
              let start = -1;
              for (let k = startIndex; k > 0; k--) {
                if (isStarting(parts[k] as Part, parentElement)) {
                  start = k;
                  break;
                }
              }
              for (let k = start; k <= parts.length; k++) {
                if (parts[k] === parentElement.end) {
                  parts[k] = '';
                  break;
                }
                parts[k] = '';
              }
            } else {
              for (let k = startIndex; k <= i; k++) parts[k] = '';
              if (!drop) parts[i] = (collectedParts as Part[]).join('') + value + part;
            }
            collectedParts = null;
          } else {
            if (collectedParts) collectedParts.push(part);
            for (const contained of containedElements) {
              if (isStarting(part, contained)) {
                currentlyCollecting = -1;
                collectedParts = null;
                break;
              }
            }
          }
        }
        if (currentlyCollecting === -1 && isStarting(part, tagElement) && part.indexOf('<', 1) === -1) {
          // A self-closing tag such as <w:t/>.
          if (part[part.length - 2] === '/') {
            parts[i] = '';
          } else {
            startIndex = i;
            currentlyCollecting = j;
            collectedParts = drop || dropParent ? null : [part];
          }
        }
      }
    }
    return parts;
  };
}

const WHITE_SPACE = /^[ \n\r\t]+$/;
const TABLE_END = '</w:tbl>';
/** What may follow a table without a paragraph put between (the original's list). */
const AFTER_TABLE = ['<w:p', '<w:tbl', '<w:sectPr', '</w:ftr>', '</w:hdr>'];

function addEmptyParagraphAfterTable(parts: Part[]): void {
  // Whether the last part that was neither white space nor a bookmark's end closed a table.
  let afterTable = false;
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i] as Part;
    if (typeof part !== 'string') continue;
    if (!afterTable) {
      // White space cannot end with `</w:tbl>`, so only the bookmark's end needs telling apart.
      if (part.endsWith(TABLE_END) && !part.startsWith('<w:bookmarkEnd')) afterTable = true;
      continue;
    }
    if (WHITE_SPACE.test(part) || part.startsWith('<w:bookmarkEnd')) continue;
    if (!AFTER_TABLE.some((start) => (part as string).startsWith(start))) {
      part = `<w:p/>${part}`;
      parts[i] = part;
    }
    afterTable = part.endsWith(TABLE_END);
  }
}
