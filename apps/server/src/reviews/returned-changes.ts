import { diffArrays, diffWordsWithSpace } from 'diff';
import PizZip from 'pizzip';
import type { WordParts } from './returned-word-file.js';
import { decodeXml, escapeXml, PARAGRAPH } from './word-xml.js';

/**
 * A counterparty's returned Word file as suggestions on the version they were sent. A file with tracked
 * changes (Word's or LibreOffice's „Änderungen nachverfolgen“) keeps them, labelled as the reviewer's; a
 * file edited without them is compared with the version sent, paragraph by paragraph and word by word, and
 * its differences become tracked changes (`w:ins`, `w:del`) in the version sent, labelled as the
 * reviewer's — so legal sees them in the editor and accepts or rejects each, and nothing of the company's
 * text changes unseen.
 */

export interface Reviewer {
  /** The name the changes are labelled with, as the review link names the person. */
  name: string;
  at: Date;
}

export interface Suggestions {
  /** The DOCX: the version sent with the reviewer's changes tracked in it. */
  content: Buffer;
  /** `kept`: the file's own tracked changes, relabelled; `compared`: made from the differences. */
  how: 'kept' | 'compared';
  /** Tracked insertions and deletions in it. */
  changes: number;
}

const TRACKED = /<w:(ins|del|moveFrom|moveTo)\b[^>]*\bw:author=/;

export function suggestionsOf(sent: Uint8Array, returned: WordParts, reviewer: Reviewer): Suggestions {
  const returnedXml = returned.get('word/document.xml')?.toString('utf8') ?? '';
  if (TRACKED.test(returnedXml)) return relabelled(returned, reviewer);
  return compared(sent, returnedXml, reviewer);
}

/** The file's own tracked changes and comments, each labelled as the reviewer's. */
function relabelled(parts: WordParts, reviewer: Reviewer): Suggestions {
  const zip = new PizZip();
  let changes = 0;
  const author = escapeXml(reviewer.name);
  for (const [name, bytes] of parts) {
    if (name === 'word/document.xml' || name === 'word/comments.xml') {
      const xml = bytes
        .toString('utf8')
        .replace(
          /(<w:(?:ins|del|moveFrom|moveTo|rPrChange|pPrChange|comment)\b[^>]*\bw:author=")[^"]*(")/g,
          (_all, before: string, after: string) => {
            if (/^<w:(ins|del)\b/.test(before)) changes++;
            return `${before}${author}${after}`;
          },
        );
      zip.file(name, xml);
    } else {
      zip.file(name, bytes);
    }
  }
  return { content: zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }), how: 'kept', changes };
}

/** A paragraph of document.xml: where it stands, its XML and its text as a reader sees it. */
interface Paragraph {
  start: number;
  end: number;
  xml: string;
  text: string;
}

function paragraphsOf(xml: string): Paragraph[] {
  return [...xml.matchAll(PARAGRAPH)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    xml: match[0],
    text: textOf(match[0]),
  }));
}

/** A paragraph's text: its runs' text, tabs and breaks; deleted text left out. */
function textOf(paragraphXml: string): string {
  let text = '';
  // Tab stops in the properties are no tabs of the text.
  const content = paragraphXml.replace(/<w:pPr>[\s\S]*?<\/w:pPr>/, '');
  for (const [token, tag] of content.matchAll(
    /<w:t(?:\s[^>]*)?>[^<]*<\/w:t>|<w:(tab|br|cr)\b[^>]*\/>|<w:t\s*\/>/g,
  )) {
    if (tag) text += tag === 'tab' ? '\t' : '\n';
    else text += decodeXml(token.replace(/^<w:t[^>]*>|<\/w:t>$/g, ''));
  }
  return text;
}

/** The version sent with the returned file's differences tracked in it. */
function compared(sent: Uint8Array, returnedXml: string, reviewer: Reviewer): Suggestions {
  const zip = new PizZip(sent);
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  const before = paragraphsOf(xml);
  const after = paragraphsOf(returnedXml);
  const marks = new ChangeMarks(reviewer, xml);
  // What replaces each paragraph of the version sent (by index), and what follows it (new paragraphs).
  const replaced = new Map<number, string>();
  const following = new Map<number, string[]>();
  let at = 0;
  const add = (index: number, texts: string[]) => {
    const base = before[Math.max(0, index - 1)];
    following.set(index - 1, [
      ...(following.get(index - 1) ?? []),
      ...texts.map((text) => marks.insertedParagraph(base?.xml ?? '<w:p/>', text)),
    ]);
  };
  const chunks = diffArrays(
    before.map((p) => p.text),
    after.map((p) => p.text),
  );
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (!chunk) continue;
    const next = chunks[i + 1];
    if (chunk.removed && next?.added) {
      const paired = Math.min(chunk.value.length, next.value.length);
      for (let j = 0; j < paired; j++) {
        const paragraph = before[at + j];
        if (paragraph) replaced.set(at + j, marks.changedParagraph(paragraph, next.value[j] ?? ''));
      }
      for (let j = paired; j < chunk.value.length; j++) {
        const paragraph = before[at + j];
        if (paragraph) replaced.set(at + j, marks.deletedParagraph(paragraph.xml));
      }
      at += chunk.value.length;
      add(at, next.value.slice(paired));
      i++;
    } else if (chunk.removed) {
      for (let j = 0; j < chunk.value.length; j++) {
        const paragraph = before[at + j];
        if (paragraph) replaced.set(at + j, marks.deletedParagraph(paragraph.xml));
      }
      at += chunk.value.length;
    } else if (chunk.added) {
      add(at, chunk.value);
    } else {
      at += chunk.value.length;
    }
  }
  let out = '';
  let cursor = 0;
  // New paragraphs before the first one go in front of it.
  const first = before[0];
  if (first) out += xml.slice(0, first.start) + (following.get(-1) ?? []).join('');
  cursor = first?.start ?? 0;
  before.forEach((paragraph, index) => {
    out += xml.slice(cursor, paragraph.start);
    out += replaced.get(index) ?? paragraph.xml;
    out += (following.get(index) ?? []).join('');
    cursor = paragraph.end;
  });
  out += xml.slice(cursor);
  zip.file('word/document.xml', out);
  return {
    content: zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }),
    how: 'compared',
    changes: marks.count,
  };
}

/** A run of a simple paragraph: its formatting and its content as text (tabs and breaks as characters). */
interface Piece {
  rPr: string;
  text: string;
}

/** Writes tracked insertions and deletions, each with its own id, the reviewer's name and the time. */
class ChangeMarks {
  count = 0;
  private nextId: number;
  private readonly attributes: (id: number) => string;

  constructor(reviewer: Reviewer, xml: string) {
    const ids = [...xml.matchAll(/\bw:id="(\d+)"/g)].map((m) => Number(m[1]));
    this.nextId = Math.max(0, ...ids) + 1;
    const date = `${reviewer.at.toISOString().slice(0, 19)}Z`;
    const author = escapeXml(reviewer.name);
    this.attributes = (id) => `w:id="${id}" w:author="${author}" w:date="${date}"`;
  }

  /** The opening tag of a tracked change around runs. */
  private mark(kind: 'ins' | 'del'): string {
    this.count++;
    return `<w:${kind} ${this.attributes(this.nextId++)}>`;
  }

  /** A paragraph mark's change: the mark itself inserted or deleted. */
  private markOfParagraph(kind: 'ins' | 'del'): string {
    this.count++;
    return `<w:${kind} ${this.attributes(this.nextId++)}/>`;
  }

  /** The paragraph with its text changed to `text`: the changed words deleted and inserted. */
  changedParagraph(paragraph: Paragraph, text: string): string {
    const parts = simpleParts(paragraph.xml);
    if (!parts) {
      // Fields, links, drawings: the whole content deleted (kept as it was), the new text inserted.
      const { open, pPr, close } = frame(paragraph.xml);
      return `${open}${pPr}${this.deletedRuns(inner(paragraph.xml))}${this.insertedRun(firstRPr(paragraph.xml), text)}${close}`;
    }
    const { open, pPr, close } = frame(paragraph.xml);
    let body = '';
    let offset = 0;
    for (const part of diffWordsWithSpace(paragraph.text, text)) {
      if (part.added) {
        body += this.insertedRun(rPrAt(parts.pieces, offset), part.value);
        continue;
      }
      const runs = runsBetween(parts.pieces, offset, offset + part.value.length);
      offset += part.value.length;
      body += part.removed ? this.deleted(runs) : runs.map((run) => runXml(run.rPr, run.text, 't')).join('');
    }
    return `${open}${pPr}${parts.leading}${body}${close}`;
  }

  /** A paragraph of the version sent that the reviewer removed: its runs and its mark deleted. */
  deletedParagraph(xml: string): string {
    const { open, pPr, close } = frame(xml);
    return `${open}${withMarkChange(pPr, this.markOfParagraph('del'))}${this.deletedRuns(inner(xml))}${close}`;
  }

  /** A paragraph the reviewer added after `base`: shaped like it, its text and its mark inserted. */
  insertedParagraph(base: string, text: string): string {
    const { pPr } = frame(base);
    const shaped = pPr
      .replace(/<w:sectPr\b[\s\S]*?<\/w:sectPr>/, '')
      .replace(/<w:rPr>[\s\S]*?<\/w:rPr>|<w:rPr\/>/, '');
    return `<w:p>${withMarkChange(shaped, this.markOfParagraph('ins'))}${this.insertedRun(firstRPr(base), text)}</w:p>`;
  }

  private insertedRun(rPr: string, text: string): string {
    if (text === '') return '';
    return `${this.mark('ins')}${runXml(rPr, text, 't')}</w:ins>`;
  }

  private deleted(runs: Piece[]): string {
    if (runs.length === 0) return '';
    return `${this.mark('del')}${runs.map((run) => runXml(run.rPr, run.text, 'delText')).join('')}</w:del>`;
  }

  /** Every run of some paragraph content wrapped as deleted, its text as deleted text; the rest kept. */
  private deletedRuns(content: string): string {
    return content.replace(/<w:r\b[^>]*>[\s\S]*?<\/w:r>/g, (run) =>
      /<w:t\b/.test(run) || /<w:(tab|br|cr)\b/.test(run)
        ? `${this.mark('del')}${run.replace(/<w:t(\s[^>]*)?>/g, '<w:delText$1>').replace(/<\/w:t>/g, '</w:delText>')}</w:del>`
        : run,
    );
  }
}

/** A paragraph's opening tag, its properties and its closing tag (a self-closed `<w:p/>` opened). */
function frame(xml: string): { open: string; pPr: string; close: string } {
  if (/^<w:p\b[^>]*\/>$/.test(xml)) return { open: xml.replace(/\/>$/, '>'), pPr: '', close: '</w:p>' };
  const open = /^<w:p\b[^>]*>/.exec(xml)?.[0] ?? '<w:p>';
  const pPr = /^<w:p\b[^>]*>\s*(<w:pPr>[\s\S]*?<\/w:pPr>|<w:pPr\/>)/.exec(xml)?.[1] ?? '';
  return { open, pPr, close: '</w:p>' };
}

/** What stands between a paragraph's properties and its end. */
function inner(xml: string): string {
  const { open, pPr } = frame(xml);
  if (/\/>$/.test(xml) && !xml.includes('</w:p>')) return '';
  const start = xml.indexOf(open) + open.length;
  const body = xml.slice(start, xml.length - '</w:p>'.length);
  return pPr ? body.slice(body.indexOf(pPr) + pPr.length) : body;
}

/**
 * A paragraph of plain runs (text, tabs, breaks; bookmarks and proofing marks before them) as pieces, or
 * undefined when it holds anything else — a field, a link, a drawing — which its words cannot be split
 * around safely.
 */
function simpleParts(xml: string): { leading: string; pieces: Piece[] } | undefined {
  const content = inner(xml);
  const pieces: Piece[] = [];
  let leading = '';
  let rest = content;
  while (rest.length > 0) {
    const marker = /^\s*<w:(bookmarkStart|bookmarkEnd|proofErr)\b[^>]*\/>/.exec(rest);
    if (marker) {
      if (pieces.length === 0) leading += marker[0];
      rest = rest.slice(marker[0].length);
      continue;
    }
    const run = /^\s*<w:r\b[^>]*>([\s\S]*?)<\/w:r>/.exec(rest);
    if (!run) return rest.trim() === '' ? { leading, pieces } : undefined;
    const body = run[1] ?? '';
    const rPr = /^\s*(<w:rPr>[\s\S]*?<\/w:rPr>|<w:rPr\/>)/.exec(body)?.[1] ?? '';
    const children = body.slice(body.indexOf(rPr) + rPr.length);
    let text = '';
    let left = children;
    while (left.trim().length > 0) {
      const child = /^\s*(?:<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:t\s*\/>|<w:(tab|br|cr)\s*\/>)/.exec(left);
      if (!child) return undefined;
      text += child[2] ? (child[2] === 'tab' ? '\t' : '\n') : decodeXml(child[1] ?? '');
      left = left.slice(child[0].length);
    }
    pieces.push({ rPr, text });
    rest = rest.slice(run[0].length);
  }
  return { leading, pieces };
}

/** The runs covering characters `from` to `to` of the paragraph, split where the range cuts a run. */
function runsBetween(pieces: Piece[], from: number, to: number): Piece[] {
  const runs: Piece[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const start = Math.max(from, offset);
    const end = Math.min(to, offset + piece.text.length);
    if (start < end) runs.push({ rPr: piece.rPr, text: piece.text.slice(start - offset, end - offset) });
    offset += piece.text.length;
  }
  return runs;
}

/** The formatting of the text at `offset`, or of the run before it at a run's edge: for inserted words. */
function rPrAt(pieces: Piece[], offset: number): string {
  let passed = 0;
  let previous = pieces[0]?.rPr ?? '';
  for (const piece of pieces) {
    if (offset <= passed) return previous;
    if (offset < passed + piece.text.length) return piece.rPr;
    passed += piece.text.length;
    previous = piece.rPr;
  }
  return previous;
}

function firstRPr(xml: string): string {
  return /<w:r\b[^>]*>\s*(<w:rPr>[\s\S]*?<\/w:rPr>)/.exec(xml)?.[1] ?? '';
}

/** A run of `text`: tabs and breaks as their elements, the rest as `w:t` or `w:delText`. */
function runXml(rPr: string, text: string, element: 't' | 'delText'): string {
  const content = text
    .split(/(\t|\n)/)
    .filter((part) => part !== '')
    .map((part) =>
      part === '\t'
        ? '<w:tab/>'
        : part === '\n'
          ? '<w:br/>'
          : `<w:${element} xml:space="preserve">${escapeXml(part)}</w:${element}>`,
    )
    .join('');
  return `<w:r>${rPr}${content}</w:r>`;
}

/** The paragraph properties with the paragraph mark's change (`<w:ins …/>` or `<w:del …/>`) in their `w:rPr`. */
function withMarkChange(pPr: string, mark: string): string {
  if (pPr === '' || pPr === '<w:pPr/>') return `<w:pPr><w:rPr>${mark}</w:rPr></w:pPr>`;
  if (pPr.includes('<w:rPr/>')) return pPr.replace('<w:rPr/>', `<w:rPr>${mark}</w:rPr>`);
  // The mark's change comes first in the paragraph mark's formatting.
  if (pPr.includes('<w:rPr>')) return pPr.replace('<w:rPr>', `<w:rPr>${mark}`);
  const at = /<w:sectPr\b|<w:pPrChange\b|<\/w:pPr>/.exec(pPr)?.index ?? pPr.length;
  return `${pPr.slice(0, at)}<w:rPr>${mark}</w:rPr>${pPr.slice(at)}`;
}
