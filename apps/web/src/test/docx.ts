import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import JSZip from 'jszip';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * A minimal DOCX with one paragraph per entry: the parts a DOCX reader needs, and nothing of a real
 * template, which legal staff edit.
 */
export async function docxWithParagraphs(paragraphs: string[]): Promise<Blob> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`);
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body.join('')}</w:body></w:document>`,
  );
  // A File, which is a Blob: jsdom's Blob lacks arrayBuffer(), which the first view reads the file with
  // and which every browser has; its File has it (setup.ts).
  return new File([await zip.generateAsync({ type: 'blob' })], 'dokument.docx', { type: DOCX_MIME_TYPE });
}
