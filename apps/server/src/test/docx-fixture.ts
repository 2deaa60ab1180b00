import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PizZip from 'pizzip';

/**
 * Minimal DOCX files for tests of the renderer and of `templates:lint`: real templates are edited by
 * legal staff and must not be the fixture of a test about broken templates.
 */

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A paragraph with one run per argument: `paragraph('{kun', 'de}')` splits a tag over two runs. */
export function paragraph(...runs: string[]): string {
  const xml = runs.map((text) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`).join('');
  return `<w:p>${xml}</w:p>`;
}

export function docxFixture({ body, header }: { body: string[]; header?: string[] }): Buffer {
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>
</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/>
</Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
${header ? `<Relationship Id="rId1" Type="${R}/header" Target="header1.xml"/>` : ''}
</Relationships>`,
  );
  const section = header ? `<w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>` : '';
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body.join('')}${section}</w:body></w:document>`,
  );
  if (header) {
    zip.file(
      'word/header1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:hdr xmlns:w="${W}" xmlns:r="${R}">${header.join('')}</w:hdr>`,
    );
  }
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A fresh folder with the given templates, as TEMPLATES_DIR of a test. */
export function templatesFolder(files: Record<string, Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vg-templates-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/**
 * `docx` with a paragraph of `text` added at the start of its body, as an edit in the editor makes a
 * new version; `extraPart` adds a binary part as a pasted scan would.
 */
export function editedDocx(docx: Uint8Array, text: string, extraPart?: Buffer): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file('word/document.xml')?.asText();
  if (xml === undefined) throw new Error('no word/document.xml');
  zip.file('word/document.xml', xml.replace('<w:body>', `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p>`));
  if (extraPart) zip.file('word/media/scan.bin', extraPart);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
