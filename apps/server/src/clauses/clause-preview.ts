import type { TemplateData } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { parseTemplate, renderParsed } from '../templates/docx-template.js';
import { bodyParagraphs } from '../templates/paragraph-diff.js';
import { blockTexts, parseClauseMarkup } from './clause-markup.js';
import { placeClauses } from './clause-placement.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A Word file of one paragraph holding a clause tag: what a clause is tried in, alone. */
const PREVIEW_KEY = 'vorschau';
const previewTemplate = (() => {
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body><w:p><w:r><w:t>{@klausel:${PREVIEW_KEY}}</w:t></w:r></w:p></w:body></w:document>`,
  );
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
})();

/**
 * A clause's paragraphs as a document gets them, its placeholders filled with the document's data; a text
 * docxtemplater cannot read (a draft with problems) shows as typed.
 */
export function clauseParagraphs(markup: string, data: TemplateData): string[] {
  try {
    const placed = placeClauses(previewTemplate, new Map([[PREVIEW_KEY, markup]]));
    return bodyParagraphs(renderParsed(parseTemplate(placed), data));
  } catch {
    return blockTexts(parseClauseMarkup(markup));
  }
}
