import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PizZip from 'pizzip';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate, renderParsed } from '../templates/docx-template.js';
import { bodyParagraphs } from '../templates/paragraph-diff.js';
import { editedTemplate } from '../test/template-edit.js';
import { clauseKeysOfTemplate, placeClauses } from './clause-placement.js';

const LIABILITY =
  '<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:t xml:space="preserve">Die Parteien haften unbeschränkt';
/** The tag as Word may store it: split over three runs, one of them formatted. */
const TAG_PARAGRAPH =
  '<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr>' +
  '<w:r><w:rPr><w:sz w:val="20"/></w:rPr><w:t>{@klau</w:t></w:r>' +
  '<w:r><w:rPr><w:i/></w:rPr><w:t>sel:haf</w:t></w:r><w:r><w:t>tung} </w:t></w:r></w:p>';
const SWISS_TAG = '<w:p><w:r><w:t>{@klausel:schweizer-recht}</w:t></w:r></w:p>';

const frameworkContract = await readFile(
  new URL('../../../../templates/rahmenvertrag-de.docx', import.meta.url),
);
/** The Rahmenvertrag with two clauses placed before its liability paragraphs, as legal would in Word. */
const template = editedTemplate(frameworkContract, [[LIABILITY, TAG_PARAGRAPH + SWISS_TAG + LIABILITY]]);

const LIABILITY_CLAUSE = `Die Haftung von {firmaName} gegenüber {partnerName} ist **je Schadensfall** begrenzt.
Dies gilt nicht bei Vorsatz.

- für Sachschäden auf 1 Mio. €
- für Vermögensschäden auf 250.000 € & Zinsen

1. Erstens
2. Zweitens`;

const documentXml = (content: Uint8Array) => new PizZip(content).file('word/document.xml')?.asText() ?? '';

describe('clauses in a template', () => {
  it('are found by their tag, however Word split it, in order and once each', () => {
    expect(clauseKeysOfTemplate(template)).toEqual(['haftung', 'schweizer-recht']);
    expect(clauseKeysOfTemplate(frameworkContract)).toEqual([]);
    expect(clauseKeysOfTemplate(new Uint8Array([1, 2, 3]))).toEqual([]);
  });

  it('are placed with the tag paragraph’s style and font, lists indented, bold kept, a left-out one removed', () => {
    const placed = placeClauses(
      template,
      new Map([
        ['haftung', LIABILITY_CLAUSE],
        ['schweizer-recht', null],
      ]),
    );
    const xml = documentXml(placed);
    expect(xml).not.toContain('klausel');
    expect(xml).not.toContain('klau');
    const paragraphs = bodyParagraphs(placed);
    const first = paragraphs.indexOf(
      'Die Haftung von {firmaName} gegenüber {partnerName} ist je Schadensfall begrenzt.\nDies gilt nicht bei Vorsatz.',
    );
    expect(first).toBeGreaterThan(0);
    expect(paragraphs.slice(first + 1, first + 6)).toEqual([
      '•\tfür Sachschäden auf 1 Mio. €',
      '•\tfür Vermögensschäden auf 250.000 € & Zinsen',
      '1.\tErstens',
      '2.\tZweitens',
      expect.stringMatching(/^Die Parteien haften unbeschränkt/),
    ]);
    // The clause paragraph keeps the template's numbered style; list items indent under it.
    expect(xml).toContain(
      '<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:rPr><w:sz w:val="20"/></w:rPr><w:t xml:space="preserve">Die Haftung von {firmaName}',
    );
    expect(xml).toContain(
      '<w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="20"/></w:rPr><w:t xml:space="preserve">je Schadensfall</w:t></w:r>',
    );
    expect(xml).toContain('<w:pPr><w:pStyle w:val="Klausel"/><w:ind w:left="425" w:hanging="425"/></w:pPr>');
    expect(xml).toContain('250.000 € &amp; Zinsen');
  });

  it('fill their placeholders when the placed template is rendered', () => {
    const placed = placeClauses(
      template,
      new Map([
        ['haftung', LIABILITY_CLAUSE],
        ['schweizer-recht', 'Es gilt Schweizer Recht.'],
      ]),
    );
    const rendered = renderParsed(parseTemplate(placed), {
      firmaName: 'WM Consulting GmbH',
      partnerName: 'Alpen Industrie AG',
      mitKunde: true,
    });
    const paragraphs = bodyParagraphs(rendered);
    expect(paragraphs).toContain(
      'Die Haftung von WM Consulting GmbH gegenüber Alpen Industrie AG ist je Schadensfall begrenzt.\nDies gilt nicht bei Vorsatz.',
    );
    expect(paragraphs).toContain('Es gilt Schweizer Recht.');
  });
});

const soffice = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((path) => existsSync(path));
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// CI installs no LibreOffice (it is large and only this check would need it); where it is installed, the
// placed and rendered contract is read by it as a user's Word would.
describe.skipIf(!soffice)('a contract with clauses, read by LibreOffice', () => {
  it('opens and holds the clause text', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'vg-clauses-lo-'));
    folders.push(folder);
    const placed = placeClauses(
      template,
      new Map([
        ['haftung', LIABILITY_CLAUSE],
        ['schweizer-recht', 'Es gilt **Schweizer** Recht.'],
      ]),
    );
    const rendered = renderParsed(parseTemplate(placed), {
      firmaName: 'WM Consulting GmbH',
      partnerName: 'Alpen Industrie AG',
    });
    writeFileSync(join(folder, 'vertrag.docx'), rendered);
    await promisify(execFile)(
      soffice as string,
      [
        `-env:UserInstallation=file://${folder}/profile`,
        '--headless',
        '--convert-to',
        'txt:Text (encoded):UTF8',
        '--outdir',
        folder,
        join(folder, 'vertrag.docx'),
      ],
      { timeout: 120_000 },
    );
    const text = readFileSync(join(folder, 'vertrag.txt'), 'utf8');
    expect(text).toContain(
      'Die Haftung von WM Consulting GmbH gegenüber Alpen Industrie AG ist je Schadensfall begrenzt.',
    );
    expect(text).toContain('für Vermögensschäden auf 250.000 € & Zinsen');
    expect(text).toContain('Es gilt Schweizer Recht.');
    expect(text).toContain('Die Parteien haften unbeschränkt');
  }, 150_000);
});
