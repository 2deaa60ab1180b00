import { DOMParser, type Element, onWarningStopParsing } from '@xmldom/xmldom';
import PizZip from 'pizzip';

/** Reading a DOCX with tracked changes through a DOM, as Word would show it: independent of the code under test. */

/** document.xml read with a DOM (not the code under test): well-formed or it throws. */
export function documentOf(docx: Uint8Array) {
  const xml = new PizZip(docx).file('word/document.xml')?.asText() ?? '';
  return new DOMParser({ onError: onWarningStopParsing }).parseFromString(xml, 'text/xml');
}

export const elements = (node: Element, name: string) => Array.from(node.getElementsByTagName(name));
const ancestors = (node: Element): Element[] => {
  const found: Element[] = [];
  for (let at = node.parentNode as Element | null; at?.tagName; at = at.parentNode as Element | null)
    found.push(at);
  return found;
};

/**
 * The paragraphs' text as Word shows it once every change is accepted (`accept`) or rejected: inserted or
 * deleted runs kept or dropped, and a paragraph whose mark was inserted (rejected) or deleted (accepted)
 * gone with its text.
 */
export function view(docx: Uint8Array, accept: boolean): string[] {
  const document = documentOf(docx);
  const texts: string[] = [];
  for (const paragraph of elements(document.documentElement as unknown as Element, 'w:p')) {
    const markChanges = elements(paragraph, 'w:pPr').flatMap((pPr) =>
      elements(pPr, 'w:rPr').flatMap((rPr) => [...elements(rPr, 'w:ins'), ...elements(rPr, 'w:del')]),
    );
    const gone = markChanges.some((mark) => mark.tagName === (accept ? 'w:del' : 'w:ins'));
    let text = '';
    for (const node of elements(paragraph, '*')) {
      const inside = ancestors(node).map((a) => a.tagName);
      if (inside.includes(accept ? 'w:del' : 'w:ins')) continue;
      if (inside.includes('w:pPr')) continue;
      if (node.tagName === 'w:t' || node.tagName === 'w:delText') text += node.textContent ?? '';
      else if (node.tagName === 'w:tab' && (node.parentNode as Element).tagName === 'w:r') text += '\t';
      else if (node.tagName === 'w:br') text += '\n';
    }
    if (!(gone && text === '')) texts.push(text);
  }
  return texts;
}
