import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { type RenderedPart, readTemplateZip, sameContent, writeDocx } from './docx-zip.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** A template as pizzip writes one: deflated and stored parts, a folder, a name beyond ASCII. */
function templateZip(): Uint8Array {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<Types/>'.repeat(40));
  zip.file('word/document.xml', '<w:p>{name}</w:p>'.repeat(200));
  zip.file('word/media/logo.png', encode('PNG-bytes'), { compression: 'STORE' });
  zip.file('word/Prüfung.xml', '<ü/>'.repeat(50));
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/** Every part read back with each checksum checked. */
function partsOf(docx: Uint8Array): Record<string, string> {
  const zip = new PizZip(docx, { checkCRC32: true });
  return Object.fromEntries(
    Object.values(zip.files)
      .filter((file) => !file.dir)
      .map((file) => [file.name, file.asText()]),
  );
}

describe('writing a rendered DOCX (writeDocx)', () => {
  it('copies unchanged parts compressed as they are and deflates the changed and new ones', () => {
    const template = templateZip();
    const entries = readTemplateZip(template);
    if (!entries) throw new Error('the template should be readable');
    const date = new Date(2026, 10, 27, 10, 30);
    const unchanged = (name: string): RenderedPart => ({
      name,
      content: null,
      date,
      unchanged: entries.get(name),
    });
    const written = writeDocx([
      unchanged('[Content_Types].xml'),
      { name: 'word/document.xml', content: encode('<w:p>Grüße & Co.</w:p>'.repeat(200)), date },
      unchanged('word/media/logo.png'),
      unchanged('word/Prüfung.xml'),
      { name: 'word/', content: null, date },
      { name: 'docProps/custom.xml', content: encode('<Properties/>'), date },
    ]);

    expect(partsOf(written)).toEqual({
      '[Content_Types].xml': '<Types/>'.repeat(40),
      'word/document.xml': '<w:p>Grüße & Co.</w:p>'.repeat(200),
      'word/media/logo.png': 'PNG-bytes',
      'word/Prüfung.xml': '<ü/>'.repeat(50),
      'docProps/custom.xml': '<Properties/>',
    });
    const read = readTemplateZip(written);
    for (const name of ['[Content_Types].xml', 'word/media/logo.png', 'word/Prüfung.xml']) {
      expect(Buffer.from(read?.get(name)?.compressed ?? []), name).toEqual(
        Buffer.from(entries.get(name)?.compressed ?? []),
      );
    }
    expect(new PizZip(written).files['word/']?.dir).toBe(true);
    expect(new PizZip(written).files['docProps/custom.xml']?.date.getTime()).toBe(date.getTime());
  });

  it('reads the sizes from the central directory when the template put them after the data', () => {
    const template = templateZip();
    const view = new DataView(template.buffer, template.byteOffset, template.byteLength);
    // The first entry as a streaming writer leaves it: flag bit 3, no checksum or sizes in its local header.
    view.setUint16(6, view.getUint16(6, true) | 0x8, true);
    for (const at of [14, 18, 22]) view.setUint32(at, 0, true);
    const entries = readTemplateZip(template);
    if (!entries) throw new Error('the template should be readable');
    const written = writeDocx(
      [...entries.keys()].map((name) => ({
        name,
        content: null,
        date: new Date(),
        unchanged: entries.get(name),
      })),
    );
    expect(partsOf(written)).toEqual(partsOf(templateZip()));
  });

  it('compares a rendered part with the template part byte for byte', () => {
    const entries = readTemplateZip(templateZip());
    const document = entries?.get('word/document.xml');
    if (!document) throw new Error('the template should have its document');
    expect(sameContent(encode('<w:p>{name}</w:p>'.repeat(200)), document)).toBe(true);
    expect(sameContent(encode('<w:p>{namE}</w:p>'.repeat(200)), document)).toBe(false);
    expect(sameContent(encode('<w:p>{name}</w:p>'.repeat(199)), document)).toBe(false);
  });

  it('leaves archives it does not write to pizzip: encrypted parts, other compression, not a zip', () => {
    const encrypted = templateZip();
    const view = new DataView(encrypted.buffer, encrypted.byteOffset, encrypted.byteLength);
    const directory = view.getUint32(encrypted.length - 6, true);
    view.setUint16(directory + 8, 0x1, true);
    expect(readTemplateZip(encrypted)).toBeUndefined();

    const bzip2 = templateZip();
    new DataView(bzip2.buffer, bzip2.byteOffset).setUint16(directory + 10, 12, true);
    expect(readTemplateZip(bzip2)).toBeUndefined();

    expect(readTemplateZip(encode('not a zip at all'))).toBeUndefined();
  });
});
