import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLANK_LINE, type TemplateData } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../shared/sha256.js';
import { docxFixture, paragraph, templatesFolder } from '../test/docx-fixture.js';
import { folderTemplates } from './folder-templates.js';
import { createRendererPool, RendererUnavailableError, TemplateError } from './renderer.js';

const data = (fields: Record<string, unknown>) => fields as unknown as TemplateData;
const documentXml = (content: Buffer) => new PizZip(content).file('word/document.xml')?.asText() ?? '';

const dir = templatesFolder({
  'brief.docx': docxFixture({
    body: [
      paragraph('Sehr geehrte ', '{partner', 'Name}', ','),
      paragraph('Beginn: {startdatum}'),
      paragraph('{#mitKunde}'),
      paragraph('Nur für Kunden'),
      paragraph('{/mitKunde}'),
      paragraph('{aufgabenbeschreibung}'),
    ],
    header: [paragraph('{firmaName}')],
  }),
  'kaputt.docx': docxFixture({ body: [paragraph('{#mitKunde}'), paragraph('ohne Ende')] }),
  'keine-docx.docx': Buffer.from('Das ist kein ZIP-Archiv.'),
});
const pool = createRendererPool({ threads: 1 });
afterAll(() => pool.close());
const folder = folderTemplates(dir);
/** Renders a file of the folder, as the command-line tools do. */
const renderer = {
  render: async (file: string, templateData: TemplateData) =>
    pool.render(await folder.current(file), templateData),
};

describe('the renderer pool', () => {
  it('fills placeholders, also those split over runs, in body and header', async () => {
    const { content, templateSha256 } = await renderer.render(
      'brief.docx',
      data({ partnerName: 'Elbwerk Logistik AG', firmaName: 'WM Consulting GmbH', mitKunde: true }),
    );
    const xml = documentXml(content);
    expect(xml).toContain('Sehr geehrte </w:t></w:r><w:r><w:t xml:space="preserve">Elbwerk Logistik AG');
    expect(xml).toContain('Nur für Kunden');
    expect(new PizZip(content).file('word/header1.xml')?.asText()).toContain('WM Consulting GmbH');
    expect(templateSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prints a blank line for a missing value and hides a section whose condition is missing', async () => {
    const { content } = await renderer.render('brief.docx', data({}));
    const xml = documentXml(content);
    expect(xml).toContain(`Beginn: ${BLANK_LINE}`);
    expect(xml).not.toContain('Nur für Kunden');
    expect(xml).not.toMatch(/undefined|null/);
  });

  it('keeps line breaks and drops characters Word cannot open', async () => {
    const { content } = await renderer.render(
      'brief.docx',
      data({ aufgabenbeschreibung: 'Zeile 1\r\nZeile 2\u0001\uD800 & <fertig>' }),
    );
    expect(documentXml(content)).toContain(
      'Zeile 1</w:t></w:r><w:r><w:br/></w:r><w:r><w:t xml:space="preserve">Zeile 2 &amp; &lt;fertig&gt;',
    );
  });

  it('writes each document with its own text when documents of one shape follow each other', async () => {
    const shape = { mitKunde: true, startdatum: '01.02.2027' };
    const first = await renderer.render('brief.docx', data({ ...shape, partnerName: 'Erste GmbH' }));
    const second = await renderer.render('brief.docx', data({ ...shape, partnerName: 'Zweite & Co. <KG>' }));
    expect(documentXml(first.content)).toContain('Erste GmbH');
    expect(documentXml(second.content)).toContain('Zweite &amp; Co. &lt;KG&gt;');
    expect(documentXml(second.content)).not.toContain('Erste GmbH');
    expect(documentXml(second.content)).toContain('Nur für Kunden');
  });

  it('never fills a document of a version from the layout of bytes that only claimed its SHA-256', async () => {
    const version = (text: string) => {
      const content = docxFixture({ body: [paragraph(`${text} {firmaName}`)] });
      return { name: 'a.docx', version: 1, sha256: sha256Hex(content), content };
    };
    const claimed = version('Fassung echt');
    const other = version('Fassung falsch');
    const mislabelled = await pool.render({ ...claimed, content: other.content }, data({ firmaName: 'WM' }));
    expect(documentXml(mislabelled.content)).toContain('Fassung falsch WM');
    const genuine = await pool.render(claimed, data({ firmaName: 'WM' }));
    expect(documentXml(genuine.content)).toContain('Fassung echt WM');
  });

  it('reads a file of the folder again after it changed', async () => {
    const changing = templatesFolder({
      'a.docx': docxFixture({ body: [paragraph('Fassung 1 {firmaName}')] }),
    });
    const files = folderTemplates(changing);
    const first = await pool.render(await files.current('a.docx'), data({ firmaName: 'WM' }));
    expect(documentXml(first.content)).toContain('Fassung 1 WM');
    writeFileSync(join(changing, 'a.docx'), docxFixture({ body: [paragraph('Fassung 2 {firmaName}')] }));
    // Far from the first write, as a save minutes later is: coarse file-system clocks cannot hide it.
    utimesSync(join(changing, 'a.docx'), new Date(), new Date(Date.now() + 60_000));
    const second = await pool.render(await files.current('a.docx'), data({ firmaName: 'WM' }));
    expect(documentXml(second.content)).toContain('Fassung 2 WM');
    expect(second.templateSha256).not.toBe(first.templateSha256);
  });

  it('renders each version it is given, whatever the thread parsed before', async () => {
    const version = (text: string, number: number) => {
      const content = docxFixture({ body: [paragraph(`${text} {firmaName}`)] });
      return { name: 'a.docx', version: number, sha256: sha256Hex(content), content };
    };
    const one = version('Fassung 1', 1);
    const two = version('Fassung 2', 2);
    for (const [template, text] of [
      [one, 'Fassung 1 WM'],
      [two, 'Fassung 2 WM'],
      [one, 'Fassung 1 WM'],
    ] as const) {
      const rendered = await pool.render(template, data({ firmaName: 'WM' }));
      expect(documentXml(rendered.content)).toContain(text);
      expect(rendered).toMatchObject({ templateSha256: template.sha256, templateVersion: template.version });
    }
  });

  it('reports a broken template as a TemplateError with the tag and a German explanation', async () => {
    const error = await renderer.render('kaputt.docx', data({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).problems).toEqual([
      {
        part: 'word/document.xml',
        tag: '{#mitKunde}',
        message: 'Der Abschnitt wird nie mit {/mitKunde} geschlossen.',
      },
    ]);
    expect((error as TemplateError).message).toBe(
      'kaputt.docx, Haupttext: {#mitKunde} – Der Abschnitt wird nie mit {/mitKunde} geschlossen.',
    );
  });

  it.each([
    ['fehlt.docx', /fehlt im Vorlagenordner/],
    ['keine-docx.docx', /keine gültige DOCX-Datei/],
  ])('reports %s as a TemplateError', async (file, message) => {
    const error = await renderer.render(file, data({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).message).toMatch(message);
  });

  const brief = folder.current('brief.docx');
  it('refuses work beyond its queue with RendererUnavailableError instead of waiting for minutes', async () => {
    // Each document of a shape of its own (its number of lines), so that every one needs a thread.
    const results = await Promise.allSettled(
      Array.from({ length: 80 }, async (_, index) =>
        pool.render(await brief, data({ aufgabenbeschreibung: 'Zeile\n'.repeat(index + 1) })),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
    expect(refused.length).toBeGreaterThan(0);
    for (const reason of refused) expect(reason).toBeInstanceOf(RendererUnavailableError);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(64);
  });

  it('refuses work once closed', async () => {
    const local = createRendererPool({ threads: 1 });
    await local.close();
    await expect(local.render(await brief, data({}))).rejects.toBeInstanceOf(RendererUnavailableError);
  });
});
