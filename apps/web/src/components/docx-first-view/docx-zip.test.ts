import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { docxPreviewReadsWithFflate } from '../../../vite-docx-zip';
import DocxZip, { DocxReadInSteps } from './docx-zip';

const TEXT = '<w:t>Kündigung zum 31.12. – § 5 „Vergütung“</w:t>';
const BINARY = Uint8Array.from({ length: 3000 }, (_, index) => (index * 7919) % 256);

/**
 * An archive as Word writes one: deflated parts, a folder entry, text with umlauts and a binary part. A
 * File, whose arrayBuffer() jsdom lacks on Blob only (setup.ts).
 */
async function archive(): Promise<Blob> {
  const zip = new JSZip();
  zip.file('word/document.xml', TEXT.repeat(50));
  zip.file('word/media/image1.png', BINARY);
  zip.folder('customXml');
  return new File([await zip.generateAsync({ type: 'blob', compression: 'DEFLATE' })], 'archiv.docx');
}

describe('the DOCX reader docx-preview is given for JSZip', () => {
  it('lists every entry and gives each one as text, bytes, buffer or blob, as JSZip does', async () => {
    const zip = await DocxZip.loadAsync(await archive());
    expect(Object.keys(zip.files).sort()).toEqual([
      'customXml/',
      'word/',
      'word/document.xml',
      'word/media/',
      'word/media/image1.png',
    ]);
    expect(zip.files['customXml/']?.dir).toBe(true);
    expect(zip.files['word/document.xml']?.dir).toBe(false);

    expect(await zip.files['word/document.xml']?.async('string')).toBe(TEXT.repeat(50));
    const image = zip.files['word/media/image1.png'];
    expect(await image?.async('uint8array')).toEqual(BINARY);
    expect(new Uint8Array((await image?.async('arraybuffer')) ?? new ArrayBuffer(0))).toEqual(BINARY);
    const blob = await image?.async('blob');
    expect(blob?.size).toBe(BINARY.length);
    expect(new Uint8Array(await new File([blob ?? ''], 'bild.png').arrayBuffer())).toEqual(BINARY);
  });

  it.each([
    ['in steps: each part in a task of its own', true],
    ['at once: within the task that asks', false],
  ])('reads a file %s', async (_name, inSteps) => {
    const file = await archive();
    const zip = await DocxZip.loadAsync(inSteps ? new DocxReadInSteps(file) : file);
    let read = false;
    const text = zip.files['word/document.xml']?.async('string').then((value) => {
      read = true;
      return value;
    });
    // Promise continuations alone (what docx-preview chains its parts with) get there only at once.
    for (let step = 0; step < 20; step++) await Promise.resolve();
    expect(read).toBe(!inSteps);
    expect(await text).toBe(TEXT.repeat(50));
  });

  it('reads from a buffer as from a blob', async () => {
    const bytes = await (await archive()).arrayBuffer();
    const zip = await DocxZip.loadAsync(bytes);
    expect(await zip.files['word/document.xml']?.async('text')).toBe(TEXT.repeat(50));
  });

  it('rejects a file that is no ZIP archive, as JSZip does', async () => {
    await expect(DocxZip.loadAsync(new File(['<html>Fehlerseite</html>'], 'fehler.html'))).rejects.toThrow();
  });

  it('is what docx-preview gets for jszip, and nothing else does', () => {
    const plugin = docxPreviewReadsWithFflate();
    const resolve = plugin.resolveId as (source: string, importer?: string) => string | null;
    expect(resolve('jszip', '/app/node_modules/docx-preview/dist/docx-preview.mjs')).toMatch(
      /src\/components\/docx-first-view\/docx-zip\.ts$/,
    );
    expect(resolve('jszip', '/app/node_modules/superdoc/dist/superdoc.es.js')).toBeNull();
    expect(resolve('jszip', '/app/apps/web/src/test/docx.ts')).toBeNull();
    expect(resolve('fflate', '/app/node_modules/docx-preview/dist/docx-preview.mjs')).toBeNull();
  });
});
