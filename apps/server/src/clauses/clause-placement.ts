import { CLAUSE_TAG_INNER } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { type ClauseBlock, type ClauseRun, parseClauseMarkup } from './clause-markup.js';

/**
 * Where a template places clauses, and the template with them placed. A clause stands in a paragraph of the
 * body holding only its tag (`{@klausel:haftung}`); placing replaces that paragraph with the clause's
 * paragraphs before docxtemplater sees the template, so the clause's own placeholders are filled like the
 * template's and the renderer's fast path (which refuses raw XML tags) still applies. The clause's paragraphs
 * take the tag paragraph's properties — its style, indentation and numbering — and its first run's font.
 */

const BODY = 'word/document.xml';
/** Paragraphs of the body; a paragraph holding another (a text box) is never a tag's paragraph. */
const PARAGRAPH = /<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g;
const TEXT = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The clause keys a template's body places, in order, each once. */
export function clauseKeysOfTemplate(content: Uint8Array): string[] {
  const xml = bodyXml(content);
  if (!xml) return [];
  const keys = new Set<string>();
  for (const [paragraph] of xml.matchAll(PARAGRAPH)) {
    const key = tagKey(paragraph);
    if (key !== undefined) keys.add(key);
  }
  return [...keys];
}

/**
 * The template with each tag's paragraph replaced by its clause's text (`markup`), or removed where the
 * clause is left out (null). A key missing from `texts` is the caller's error.
 */
export function placeClauses(content: Uint8Array, texts: ReadonlyMap<string, string | null>): Uint8Array {
  const zip = new PizZip(content);
  const xml = zip.file(BODY)?.asText();
  if (!xml) return content;
  const placed = xml.replace(PARAGRAPH, (paragraph) => {
    const key = tagKey(paragraph);
    if (key === undefined) return paragraph;
    const markup = texts.get(key);
    if (markup === undefined) throw new Error(`no text for clause ${key}`);
    return markup === null ? '' : clauseXml(parseClauseMarkup(markup), baseOf(paragraph));
  });
  zip.file(BODY, placed);
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

function bodyXml(content: Uint8Array): string | undefined {
  try {
    return new PizZip(content).file(BODY)?.asText();
  } catch {
    // Not a zip: the template check reports the file itself.
    return undefined;
  }
}

/** The key of a paragraph that holds nothing but a clause tag, however Word split it into runs. */
function tagKey(paragraph: string): string | undefined {
  if (paragraph.includes('<w:txbxContent')) return undefined;
  let text = '';
  for (const [, piece = ''] of paragraph.matchAll(TEXT)) text += piece;
  const inner = /^\{(.*)\}$/.exec(unescapeXml(text).trim())?.[1];
  return inner === undefined ? undefined : CLAUSE_TAG_INNER.exec(inner.trim())?.[1]?.trim();
}

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '');
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Base {
  /** The tag paragraph's `<w:pPr>…</w:pPr>`, or ''. */
  pPr: string;
  /** Its first run's `<w:rPr>…</w:rPr>`, or ''. */
  rPr: string;
}

function baseOf(paragraph: string): Base {
  const pPr = /<w:pPr>[\s\S]*?<\/w:pPr>/.exec(paragraph)?.[0] ?? '';
  const runs = paragraph.slice(paragraph.indexOf(pPr) + pPr.length);
  return { pPr, rPr: /<w:r\b[^>]*>\s*(<w:rPr>[\s\S]*?<\/w:rPr>)/.exec(runs)?.[1] ?? '' };
}

function clauseXml(blocks: ClauseBlock[], base: Base): string {
  return blocks
    .map((block) => {
      const marker =
        block.kind === 'paragraph'
          ? ''
          : `${run(block.kind === 'bullet' ? '•' : `${block.number}.`, false, base.rPr)}<w:r>${base.rPr}<w:tab/></w:r>`;
      const lines = block.lines
        .map((line) => line.map((piece: ClauseRun) => run(piece.text, piece.bold, base.rPr)).join(''))
        .join(`<w:r>${base.rPr}<w:br/></w:r>`);
      const pPr = block.kind === 'paragraph' ? base.pPr : listItemProperties(base.pPr);
      return `<w:p>${pPr}${marker}${lines}</w:p>`;
    })
    .join('');
}

function run(text: string, bold: boolean, rPr: string): string {
  return `<w:r>${bold ? withBold(rPr) : rPr}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

/** The run properties with bold on, in the schema's order (after the style and fonts). */
function withBold(rPr: string): string {
  const inner = (/^<w:rPr>([\s\S]*)<\/w:rPr>$/.exec(rPr)?.[1] ?? '').replace(/<w:bC?s?\b[^>]*\/>/g, '');
  const lead = /^(?:<w:rStyle\b[^>]*\/>)?(?:<w:rFonts\b[^>]*\/>)?/.exec(inner)?.[0] ?? '';
  return `<w:rPr>${lead}<w:b/><w:bCs/>${inner.slice(lead.length)}</w:rPr>`;
}

/** Elements of a paragraph's properties that the schema puts after the indentation. */
const AFTER_INDENT =
  /<w:(?:contextualSpacing|mirrorIndents|suppressOverlap|jc|textDirection|textAlignment|textboxTightWrap|outlineLvl|divId|cnfStyle|rPr|sectPr|pPrChange)\b/;

/**
 * A list item of a clause: the tag paragraph's properties without its own numbering, indented one step
 * further with the marker hanging in front.
 */
function listItemProperties(pPr: string): string {
  const inner = (/^<w:pPr>([\s\S]*)<\/w:pPr>$/.exec(pPr)?.[1] ?? '')
    .replace(/<w:numPr>[\s\S]*?<\/w:numPr>/, '')
    .replace(/<w:ind\b[^>]*\/>/, '');
  const left = Number(/<w:ind\b[^>]*w:(?:left|start)="(\d+)"/.exec(pPr)?.[1] ?? 0) + 425;
  const indent = `<w:ind w:left="${left}" w:hanging="425"/>`;
  const at = inner.search(AFTER_INDENT);
  return `<w:pPr>${at < 0 ? inner + indent : inner.slice(0, at) + indent + inner.slice(at)}</w:pPr>`;
}
