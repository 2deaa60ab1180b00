import { DOMParser, onWarningStopParsing } from '@xmldom/xmldom';
import PizZip from 'pizzip';

/**
 * The text a reader sees in a part of a DOCX, as Word would show it: runs joined, paragraphs on
 * lines, breaks as line breaks, XML entities decoded. Throws when the part is not well-formed XML,
 * which is what makes Word refuse to open a file.
 */
export function docxText(docx: Uint8Array, part = 'word/document.xml'): string {
  const xml = new PizZip(docx).file(part)?.asText();
  if (xml === undefined) throw new Error(`${part} is missing`);
  const document = new DOMParser({ onError: onWarningStopParsing }).parseFromString(xml, 'text/xml');
  const paragraphs = Array.from(document.getElementsByTagName('w:p'));
  return paragraphs
    .map((paragraph) => {
      let text = '';
      for (const node of Array.from(paragraph.getElementsByTagName('*'))) {
        if (node.tagName === 'w:t') text += node.textContent ?? '';
        else if (node.tagName === 'w:br') text += '\n';
        else if (node.tagName === 'w:tab') text += '\t';
      }
      return text;
    })
    .join('\n');
}

/** Every part of the DOCX that is text a reader sees: body, headers and footers. */
export function docxParts(docx: Uint8Array): string[] {
  return Object.keys(new PizZip(docx).files).filter((name) =>
    /^word\/(document|header\d*|footer\d*)\.xml$/.test(name),
  );
}
