import { readFileSync } from 'node:fs';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { docxFixture, paragraph } from '../test/docx-fixture.js';
import { compileTemplate, parseTemplate, renderParsed } from './docx-template.js';

const repository = new URL('../../../../', import.meta.url).pathname;

/** Every entry of a DOCX in the archive's order, a part with its text. */
const parts = (docx: Uint8Array) =>
  Object.values(new PizZip(docx, { checkCRC32: true }).files).map((file) => [
    file.name,
    file.dir ? null : file.asText(),
  ]);

describe('parts without placeholders (renderParsed)', () => {
  it('are rendered for the first document only, when they render as the template has them', () => {
    const bytes = readFileSync(`${repository}templates/angebot-de.docx`);
    const parsed = parseTemplate(bytes);
    expect(parsed.asInTemplate.size).toBe(0);
    renderParsed(parsed, { firmaName: 'WM' });
    expect([...parsed.asInTemplate]).toEqual(
      expect.arrayContaining(['word/settings.xml', 'docProps/core.xml']),
    );
    expect(parsed.asInTemplate.has('word/document.xml')).toBe(false);
    // Later documents are the same as from a fresh parse, folder entries included.
    const data = { firmaName: 'Elbwerk' };
    expect(parts(renderParsed(parsed, data))).toEqual(
      parts(compileTemplate(bytes).render(data).toUint8Array()),
    );
  });

  it('are rendered for every document when rendering changes them', () => {
    // docxtemplater puts a paragraph after a table that is followed by anything else.
    const table = '<w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl><w:bookmarkStart w:id="0" w:name="x"/>';
    const bytes = docxFixture({ body: [paragraph('{firmaName}')], header: [table] });
    const parsed = parseTemplate(bytes);
    for (const firmaName of ['WM', 'Elbwerk']) {
      const rendered = renderParsed(parsed, { firmaName });
      expect(new PizZip(rendered).file('word/header1.xml')?.asText()).toContain(
        '</w:tbl><w:p/><w:bookmarkStart',
      );
      expect(parts(rendered)).toEqual(parts(compileTemplate(bytes).render({ firmaName }).toUint8Array()));
    }
    expect(parsed.asInTemplate.has('word/header1.xml')).toBe(false);
  });
});
