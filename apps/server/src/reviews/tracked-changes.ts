import PizZip from 'pizzip';
import { decodeXml, PARAGRAPH } from './word-xml.js';

/**
 * The tracked changes of a returned round's version, read as suggestions and decided one by one. Each
 * `w:ins` or `w:del` around runs is a suggestion; a paragraph mark's own change (`<w:ins/>` in the mark's
 * formatting: a paragraph added or removed) goes with the paragraph's first change of its kind, so a new
 * paragraph is one suggestion, not two. Accepting keeps an insertion's text and drops a deletion's;
 * rejecting does the opposite — what Word's „Annehmen“ and „Ablehnen“ do.
 */

export interface TrackedChange {
  /** The change's `w:id`, unique in the version once `withUniqueChangeIds` has numbered them. */
  changeId: string;
  kind: 'insert' | 'delete';
  text: string;
  /** The paragraph as it read before the change, shortened. */
  context: string;
  author: string;
  /** From the change's `w:date`; null where the file gave none. */
  at: Date | null;
}

export type Decision = 'accepted' | 'rejected';

const DOCUMENT = 'word/document.xml';
/** A change around runs (never nested in our files or Word's). */
const RUN_CHANGE = /<w:(ins|del)\b([^>]*[^/>])?>([\s\S]*?)<\/w:\1>/g;
/** A paragraph mark's change, self-closed in the mark's `w:rPr`. */
const MARK_CHANGE = /<w:(ins|del)\b([^>]*)\/>/g;
const CONTEXT_MAX = 240;

/**
 * The file with every `w:ins` and `w:del` numbered afresh: a reviewer's Word file may repeat an id, and a
 * suggestion is found again by its id when it is decided.
 */
export function withUniqueChangeIds(docx: Uint8Array): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file(DOCUMENT)?.asText() ?? '';
  let next = 1;
  const numbered = xml.replace(
    /<w:(ins|del)\b([^>]*?)(\/?)>/g,
    (_all, kind: string, attributes: string, end: string) => {
      const id = `w:id="${next++}"`;
      const rest = /\bw:id="[^"]*"/.test(attributes)
        ? attributes.replace(/\bw:id="[^"]*"/, id)
        : `${attributes} ${id}`;
      return `<w:${kind}${rest}${end}>`;
    },
  );
  zip.file(DOCUMENT, numbered);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The suggestions of a version, in document order. */
export function trackedChangesOf(docx: Uint8Array): TrackedChange[] {
  const xml = new PizZip(docx).file(DOCUMENT)?.asText() ?? '';
  const changes: TrackedChange[] = [];
  for (const [paragraph] of xml.matchAll(PARAGRAPH)) {
    const context = shortened(textBefore(paragraph));
    const kinds = new Set<string>();
    for (const [, tag, attributes = '', content = ''] of paragraph.matchAll(RUN_CHANGE)) {
      const kind = tag === 'ins' ? 'insert' : 'delete';
      kinds.add(kind);
      changes.push({ ...attributesOf(attributes), kind, text: textOf(content, kind), context });
    }
    for (const [, tag, attributes = ''] of paragraph.matchAll(MARK_CHANGE)) {
      const kind = tag === 'ins' ? 'insert' : 'delete';
      // A mark alone (an empty paragraph added or removed) is a suggestion of its own.
      if (!kinds.has(kind)) changes.push({ ...attributesOf(attributes), kind, text: '¶', context });
    }
  }
  return changes;
}

/**
 * The version with the named changes decided; a paragraph mark's change follows the first change of its
 * kind in the paragraph. Changes not named stay tracked.
 */
export function decided(docx: Uint8Array, decisions: ReadonlyMap<string, Decision>): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file(DOCUMENT)?.asText() ?? '';
  const out = xml.replace(PARAGRAPH, (paragraph) => decidedParagraph(paragraph, decisions));
  zip.file(DOCUMENT, out);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function decidedParagraph(paragraph: string, decisions: ReadonlyMap<string, Decision>): string {
  // What the paragraph's first change of each kind was decided: its mark follows.
  const firstOfKind = new Map<string, Decision | undefined>();
  for (const [, tag, attributes = ''] of paragraph.matchAll(RUN_CHANGE)) {
    if (!firstOfKind.has(tag as string)) firstOfKind.set(tag as string, decisions.get(idOf(attributes)));
  }
  let markRemoved: { kind: string; decision: Decision } | undefined;
  let result = paragraph.replace(RUN_CHANGE, (all, tag: string, attributes = '', content: string) => {
    const decision = decisions.get(idOf(attributes));
    if (!decision) return all;
    const keep = (tag === 'ins') === (decision === 'accepted');
    if (!keep) return '';
    return tag === 'ins' ? content : restoredDeletion(content);
  });
  result = result.replace(MARK_CHANGE, (all, tag: string, attributes = '') => {
    const decision = firstOfKind.has(tag) ? firstOfKind.get(tag) : decisions.get(idOf(attributes));
    if (!decision) return all;
    markRemoved = { kind: tag, decision };
    return '';
  });
  // A paragraph added and rejected, or removed and accepted, goes once nothing of its text is left.
  if (markRemoved) {
    const gone =
      (markRemoved.kind === 'ins' && markRemoved.decision === 'rejected') ||
      (markRemoved.kind === 'del' && markRemoved.decision === 'accepted');
    if (gone && textOf(result, 'insert').trim() === '' && !/<w:sectPr\b/.test(result)) return '';
  }
  return result.replace(/<w:rPr><\/w:rPr>/g, '');
}

/** Deleted runs given back: their deleted text is text again. */
function restoredDeletion(content: string): string {
  return content
    .replace(/<w:delText(\s[^>]*)?>/g, '<w:t$1>')
    .replace(/<\/w:delText>/g, '</w:t>')
    .replace(/<w:delInstrText(\s[^>]*)?>/g, '<w:instrText$1>')
    .replace(/<\/w:delInstrText>/g, '</w:instrText>');
}

function idOf(attributes: string): string {
  return /\bw:id="([^"]*)"/.exec(attributes)?.[1] ?? '';
}

function attributesOf(attributes: string): Pick<TrackedChange, 'changeId' | 'author' | 'at'> {
  const author = /\bw:author="([^"]*)"/.exec(attributes)?.[1];
  const date = /\bw:date="([^"]*)"/.exec(attributes)?.[1];
  const at = date ? new Date(date) : null;
  return {
    changeId: idOf(attributes),
    author: author ? decodeXml(author) : '',
    at: at && !Number.isNaN(at.getTime()) ? at : null,
  };
}

/** Text of runs: `w:t` for an insertion or plain text, `w:delText` for a deletion; tabs and breaks. */
function textOf(xml: string, kind: 'insert' | 'delete'): string {
  const element = kind === 'insert' ? 't' : 'delText';
  let text = '';
  const pattern = new RegExp(
    `<w:${element}(?:\\s[^>]*)?>([^<]*)</w:${element}>|<w:(tab|br|cr)\\b[^>]*/>`,
    'g',
  );
  const content = xml.replace(/<w:pPr>[\s\S]*?<\/w:pPr>/, '');
  for (const [, value, tag] of content.matchAll(pattern)) {
    text += tag ? (tag === 'tab' ? '\t' : ' ') : decodeXml(value ?? '');
  }
  return text;
}

/** The paragraph as it read before the reviewer's changes: insertions left out, deletions kept. */
function textBefore(paragraph: string): string {
  const withoutInsertions = paragraph.replace(/<w:ins\b[^>]*[^/>]>[\s\S]*?<\/w:ins>/g, '');
  return textOf(restoredDeletion(withoutInsertions), 'insert');
}

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > CONTEXT_MAX ? `${flat.slice(0, CONTEXT_MAX - 1)}…` : flat;
}
