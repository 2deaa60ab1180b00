import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { png } from '../../test/png-fixture.js';
import { markSignatures } from './signed-contract-pages.js';

/** A contract page as LibreOffice renders our signature blocks: visible labels, 1-pt white anchors. */
async function contractPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage();
  const page = pdf.addPage();
  const anchor = (text: string, x: number, y: number) =>
    page.drawText(text, { x, y, size: 1, font, color: rgb(1, 1, 1) });
  page.drawText('Für den Auftraggeber', { x: 72, y: 300, size: 11, font });
  anchor('/sig_kunde1/', 72, 240);
  anchor('/dat_kunde1/', 72, 200);
  anchor('/nam_kunde1/', 72, 160);
  anchor('/sig_kunde2/', 320, 240);
  anchor('/dat_kunde2/', 320, 200);
  anchor('/nam_kunde2/', 320, 160);
  // A block nobody signs in this envelope.
  anchor('/sig_pp/', 72, 90);
  return pdf.save();
}

/** The visible text of a page with where each piece starts, and whether an image is painted on it. */
async function pageContent(bytes: Uint8Array, pageNumber: number) {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const page = await document.getPage(pageNumber);
  const { items } = await page.getTextContent();
  const texts = items.flatMap((item) =>
    'str' in item && item.str.trim() ? [{ text: item.str, x: item.transform[4], y: item.transform[5] }] : [],
  );
  const images = (await page.getOperatorList()).fnArray.filter((op) => op === OPS.paintImageXObject).length;
  await document.destroy();
  return { texts, images };
}

describe('markSignatures', () => {
  it("places each signer's drawn signature or typed name, the time and the name in their block", async () => {
    const bytes = await contractPdf();
    const pdf = await PDFDocument.load(bytes);
    const signedAt = new Date('2026-11-25T13:04:00Z');
    const placed = await markSignatures(pdf, bytes, [
      { role: 'Kunde', typedName: 'Klara Kunde', drawnSignature: png(120, 40), signedAt },
      { role: 'Kunde2', typedName: 'Karl Zweit', drawnSignature: null, signedAt },
    ]);
    expect(placed).toBe(2);
    const { texts, images } = await pageContent(await pdf.save(), 2);
    const at = (text: string) => texts.filter((t) => t.text === text).map((t) => [t.x, t.y]);
    // Klara drew: her image above her line; Karl typed: his name stands there instead.
    expect(images).toBe(1);
    expect(at('Karl Zweit')).toEqual([[320, 241]]);
    expect(at('Klara Kunde')).toEqual([]);
    const captions = texts.filter((t) =>
      t.text.includes('elektronisch unterschrieben am 25.11.2026 14:04 Uhr'),
    );
    expect(captions.map((t) => t.text.split(' · ')[0])).toEqual(['Klara Kunde', 'Karl Zweit']);
    // Beside the drawing (120 × 40 scaled into 150 × 36: 108 wide) and beside the typed name.
    expect(captions.map((t) => Math.round(t.x))).toEqual([72 + 108 + 6, expect.any(Number)]);
    expect(captions[1]?.x).toBeGreaterThan(320 + 60);
    expect(at('25.11.2026 14:04')).toEqual([
      [72, 201],
      [320, 201],
    ]);
    // Nothing where nobody signed, nothing on the page without blocks.
    expect(texts.filter((t) => t.y < 100 && t.text !== '/sig_pp/')).toEqual([]);
    expect((await pageContent(await pdf.save(), 1)).texts).toEqual([]);
  });

  it("places the countersignatory in the company's block, or says the seal stands for the company", async () => {
    const company = await PDFDocument.create();
    const font = await company.embedFont(StandardFonts.Helvetica);
    const page = company.addPage();
    page.drawText('Für den Auftragnehmer', { x: 72, y: 400, size: 11, font });
    page.drawText('/sig_firma/', { x: 72, y: 340, size: 1, font, color: rgb(1, 1, 1) });
    page.drawText('/dat_firma/', { x: 72, y: 300, size: 1, font, color: rgb(1, 1, 1) });
    const bytes = await company.save();
    const signedAt = new Date('2026-11-25T13:04:00Z');

    const countersigned = await PDFDocument.load(bytes);
    const placed = await markSignatures(countersigned, bytes, [
      {
        role: 'Firma',
        typedName: 'Lea Brandt',
        drawnSignature: null,
        signedAt,
        signatoryFunction: 'Prokuristin',
      },
    ]);
    expect(placed).toBe(1);
    const signed = (await pageContent(await countersigned.save(), 1)).texts;
    expect(
      signed.find((t) => t.text.startsWith('Lea Brandt, Prokuristin · elektronisch unterschrieben')),
    ).toBeDefined();
    expect(signed.filter((t) => t.text.includes('versiegelt'))).toEqual([]);

    const sealedOnly = await PDFDocument.load(bytes);
    expect(
      await markSignatures(sealedOnly, bytes, [
        { role: 'Kunde', typedName: 'Klara Kunde', drawnSignature: null, signedAt },
      ]),
    ).toBe(0);
    const sealed = (await pageContent(await sealedOnly.save(), 1)).texts;
    expect(sealed.filter((t) => t.text === 'Für die Firma: elektronisch versiegelt')).toEqual([
      { text: 'Für die Firma: elektronisch versiegelt', x: 72, y: 341 },
    ]);
  });

  it('places nothing in a contract without signature blocks', async () => {
    const plain = await PDFDocument.create();
    plain.addPage().drawText('Kündigung', {
      x: 72,
      y: 700,
      size: 12,
      font: await plain.embedFont(StandardFonts.Helvetica),
    });
    const bytes = await plain.save();
    const pdf = await PDFDocument.load(bytes);
    const signedAt = new Date();
    expect(
      await markSignatures(pdf, bytes, [
        { role: 'Kunde', typedName: 'Klara', drawnSignature: null, signedAt },
      ]),
    ).toBe(0);
  });
});
