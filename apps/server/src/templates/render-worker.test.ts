import type { TemplateData } from '@vertragsgenerator/domain';
import { transferableSymbol, valueSymbol } from 'piscina';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../shared/sha256.js';
import { docxFixture, paragraph } from '../test/docx-fixture.js';
import { shapeOf } from './document-layout.js';
import render, { PARSED_TEMPLATES_KEPT, type RenderOutcome, renderDocument } from './render-worker.js';

const data = { firmaName: 'WM' } as unknown as TemplateData;
/** The text of the outcome's document: the document itself, or its layout with the data's lines put in. */
function documentXml(outcome: RenderOutcome): string {
  if (!outcome.ok) return '';
  if ('content' in outcome) return new PizZip(outcome.content).file('word/document.xml')?.asText() ?? '';
  const part = outcome.layout.parts.find(({ name }) => name === 'word/document.xml');
  if (part?.kind !== 'filled') return '';
  const { lines } = shapeOf(data);
  return part.texts
    .map((text, i) => (i === 0 ? text : `${lines[part.holes[i - 1] as number]}${text}`))
    .join('');
}
/** A template version no other test of this file renders: each test starts with a thread that lacks it. */
const version = (text: string) => {
  const content = docxFixture({ body: [paragraph(`${text} {firmaName}`)] });
  return { sha256: sha256Hex(content), content };
};

describe('the render thread', () => {
  it('asks for the bytes of a version it does not hold, and keeps the version once given them', () => {
    const template = version('Fassung A');
    expect(renderDocument({ template: { sha256: template.sha256 }, data })).toEqual({
      ok: false,
      templateNeeded: true,
    });
    expect(documentXml(renderDocument({ template, data }))).toContain('Fassung A WM');
    expect(documentXml(renderDocument({ template: { sha256: template.sha256 }, data }))).toContain(
      'Fassung A WM',
    );
  });

  it('never serves bytes under a SHA-256 they do not have', () => {
    const claimed = version('Fassung B');
    const other = version('Fassung C');
    // Given other bytes than the SHA-256 names, it renders the bytes it was given ...
    const given = renderDocument({ template: { sha256: claimed.sha256, content: other.content }, data });
    expect(documentXml(given)).toContain('Fassung C WM');
    // ... and does not answer the next document of the named version from them.
    expect(renderDocument({ template: { sha256: claimed.sha256 }, data })).toEqual({
      ok: false,
      templateNeeded: true,
    });
    expect(documentXml(renderDocument({ template: { sha256: other.sha256 }, data }))).toContain(
      'Fassung C WM',
    );
  });

  it('keeps the versions used last, and lets go of the one used longest ago', () => {
    const inUse = version('Fassung E');
    const others = Array.from({ length: PARSED_TEMPLATES_KEPT }, (_, index) => version(`Fassung F${index}`));
    renderDocument({ template: inUse, data });
    for (const other of others) {
      renderDocument({ template: other, data });
      // The version in use is asked for between the others, as a current template is: it stays.
      expect(documentXml(renderDocument({ template: { sha256: inUse.sha256 }, data }))).toContain(
        'Fassung E WM',
      );
    }
    // One version too many: the first of the others, used longest ago, had to go; the last one stays.
    expect(renderDocument({ template: { sha256: others[0]?.sha256 ?? '' }, data })).toEqual({
      ok: false,
      templateNeeded: true,
    });
    expect(
      documentXml(renderDocument({ template: { sha256: others.at(-1)?.sha256 ?? '' }, data })),
    ).toContain(`Fassung F${PARSED_TEMPLATES_KEPT - 1} WM`);
  });

  it('answers a layout of the data, which holds none of its text', async () => {
    const outcome = await render({ template: version('Fassung D'), data });
    expect(outcome.ok && 'layout' in outcome).toBe(true);
    expect(JSON.stringify(outcome)).not.toContain('WM');
    expect(documentXml(outcome)).toContain('Fassung D WM');
  });

  it('renders a template no layout can be made of whole, and hands the document to piscina to transfer, not to copy', async () => {
    // A C1 control in the template's own text: a layout mark could not be told from it.
    const moved = (await render({ template: version('Fassung \u0080 G'), data })) as unknown as Record<
      symbol,
      unknown
    >;
    const outcome = moved[valueSymbol] as RenderOutcome;
    expect(documentXml(outcome)).toContain('Fassung \u0080 G WM');
    // The document's own buffer, given up by the thread (piscina passes it in the transfer list).
    const content = outcome.ok && 'content' in outcome ? outcome.content : undefined;
    expect(moved[transferableSymbol]).toBe(content?.buffer);
    expect(content?.byteLength).toBe(content?.buffer.byteLength);
  });
});
