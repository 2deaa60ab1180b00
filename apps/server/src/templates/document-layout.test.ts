import type { TemplateData } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { catalogueSamples, templateFile } from '../test/catalogue-samples.js';
import { docxFixture, paragraph } from '../test/docx-fixture.js';
import { fillLayout, prepareLayout, shapeOf, xmlSafe } from './document-layout.js';
import { compileTemplate, layoutParsed, parseTemplate } from './docx-template.js';
import { readTemplateZip } from './docx-zip.js';
import { sampleTemplateData } from './samples.js';

/**
 * Every entry of a DOCX in the archive's order, a part with its text, read with every checksum checked;
 * a long text as its lines after each tag, so that a difference shows where it is.
 */
function parts(docx: Uint8Array): [string, string[] | null][] {
  const zip = new PizZip(docx, { checkCRC32: true });
  return Object.values(zip.files).map((file) => [file.name, file.dir ? null : file.asText().split(/(?<=>)/)]);
}

/** What docxtemplater renders from a fresh parse of the template: the reference. */
const docxtemplater = (bytes: Uint8Array, data: object) =>
  parts(compileTemplate(bytes).render(xmlSafe(data)).toUint8Array());

/** The document as the renderer writes it: the layout of `shapeFrom`'s shape, filled with `data`. */
function filled(bytes: Uint8Array, shapeFrom: object, data: object): ReturnType<typeof parts> {
  const layout = layoutParsed(parseTemplate(bytes), shapeOf(xmlSafe(shapeFrom)).marked as object);
  const entries = readTemplateZip(bytes);
  if (!layout || !entries) throw new Error('no layout');
  return parts(fillLayout(prepareLayout(layout, entries), shapeOf(xmlSafe(data)).lines));
}

/** Lines that XML, Word's runs and docxtemplater's own syntax must take literally. */
const AWKWARD_LINES = [
  '  führend und folgend  ',
  '   ',
  '\t',
  'Müller & Söhne <GmbH> "Zitat" \'einfach\'',
  '{firmaName} {#mitKunde}{/mitKunde}',
  '€ 1.234,56 – ½ · 😀 中文',
  '&amp; &lt;w:t&gt;',
  'Steuer\u0085zeichen\u0080 0\u0081 entfernt',
  'x'.repeat(3000),
];

/** The same data with every text line replaced by another, of the same shape (empty lines stay empty). */
function otherText<T>(value: T, next = { line: 0 }, inList = false): T {
  if (typeof value === 'string') {
    if (value === '' || inList) return value;
    return value
      .split('\n')
      .map((line) => (line ? AWKWARD_LINES[next.line++ % AWKWARD_LINES.length] : ''))
      .join('\n') as T;
  }
  if (Array.isArray(value)) return value.map((item) => otherText(item, next, true)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, otherText(item, next)])) as T;
  }
  return value;
}

describe('the shape of template data', () => {
  const base = {
    firmaName: 'WM',
    mitKunde: true,
    unterschriften: [{ name: 'A' }, { name: 'B' }],
    aufgabe: 'eins\nzwei',
  };

  it('is the same for other text, and keeps each line in the order of its mark', () => {
    const shape = shapeOf(base);
    expect(shapeOf({ ...base, firmaName: 'Andere GmbH', aufgabe: 'drei\nvier' }).key).toBe(shape.key);
    expect(shape.lines).toEqual(['WM', 'A', 'B', 'eins', 'zwei']);
    expect(JSON.stringify(shape.marked)).not.toMatch(/WM|eins|zwei/);
  });

  it.each([
    ['an empty text', { firmaName: '' }],
    ['a missing value', { firmaName: undefined }],
    ['another boolean', { mitKunde: false }],
    ['another number of lines', { firmaName: 'W\nM' }],
    ['an empty line where there was text', { aufgabe: 'eins\n' }],
    ['another number of signers', { unterschriften: [{ name: 'A' }] }],
    ['a field of another name', { firmenName: 'WM' }],
  ])('differs for %s', (_change, change) => {
    expect(shapeOf({ ...base, ...change }).key).not.toBe(shapeOf(base).key);
  });

  it('takes a list of texts as shape, since each item is the scope of its tags', () => {
    expect(shapeOf({ items: ['a', 'b'] }).key).not.toBe(shapeOf({ items: ['a', 'c'] }).key);
    expect(shapeOf({ items: ['a', 'b'] }).lines).toEqual([]);
  });
});

describe('a layout filled with other data of its shape', () => {
  // Each template of the catalogue with four demo matches; the layout of one match's data is filled
  // with that data and with other text of the same shape, and both must be docxtemplater's document.
  it('is the document docxtemplater renders, part for part, for every template of the catalogue', {
    timeout: 60_000,
  }, async () => {
    const { companyData, matches, firstOfTemplate } = await catalogueSamples();
    expect(firstOfTemplate.length).toBeGreaterThan(1);
    let compared = 0;
    for (const entry of firstOfTemplate) {
      const bytes = templateFile(entry.template);
      for (const match of matches) {
        const data: TemplateData = {
          ...sampleTemplateData(entry, match, companyData, new Date(2026, 10, 21)),
          // Several lines, one of them empty: docxtemplater breaks the run for each.
          aufgabenbeschreibung: 'Erste Zeile\nZweite Zeile\n\nVierte Zeile',
        };
        const other = otherText(data);
        expect(shapeOf(xmlSafe(other)).key).toBe(shapeOf(xmlSafe(data)).key);
        const label = `${entry.template} ${match.matchId}`;
        expect(filled(bytes, data, data), label).toEqual(docxtemplater(bytes, data));
        expect(filled(bytes, data, other), label).toEqual(docxtemplater(bytes, other));
        compared++;
      }
    }
    expect(compared).toBe(firstOfTemplate.length * 4);
  });

  it('fills headers, sections, signer lists and missing values as docxtemplater does', () => {
    const bytes = docxFixture({
      body: [
        paragraph('Sehr geehrte ', '{partner', 'Name}', ','),
        paragraph('{#mitKunde}'),
        paragraph('Für {kundeName}'),
        paragraph('{/mitKunde}'),
        paragraph('{#unterschriften}{name} ({rolle}){/unterschriften}'),
        paragraph('Beginn: {startdatum}'),
      ],
      header: [paragraph('{firmaName}')],
    });
    const data = {
      partnerName: 'Elbwerk',
      mitKunde: true,
      kundeName: 'Kunde\nzweite Zeile',
      unterschriften: [
        { name: 'Ana', rolle: 'Kunde' },
        { name: 'Ben', rolle: '' },
      ],
      firmaName: 'WM',
    };
    const other = otherText(data);
    expect(filled(bytes, data, other)).toEqual(docxtemplater(bytes, other));
    const text = filled(bytes, data, other)
      .find(([name]) => name === 'word/document.xml')?.[1]
      ?.join('');
    expect(text).toContain('Müller &amp; Söhne &lt;GmbH&gt;');
    expect(text).toContain('{firmaName} {#mitKunde}{/mitKunde}');
    expect(text).not.toMatch(/[\u0080-\u009f]/);
  });

  it.each([
    ['whose text holds a mark character', [paragraph('Preis \u00800\u0081 {firmaName}')]],
    [
      'with a raw XML tag, in a section too',
      [paragraph('{#mitKunde}'), paragraph('{@firmaName}'), paragraph('{/mitKunde}')],
    ],
  ])('makes no layout of a template %s', (_case, body) => {
    const data = { firmaName: 'WM', mitKunde: true };
    expect(
      layoutParsed(parseTemplate(docxFixture({ body })), shapeOf(data).marked as object),
    ).toBeUndefined();
  });
});
