import { join } from 'node:path';
import { catalogueTemplates } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { docxFixture, paragraph, templatesFolder } from '../test/docx-fixture.js';
import { runTemplatesLint } from './templates-lint.js';

const valid = docxFixture({
  body: [
    paragraph('{#mitKunde}Kunde: {kunde}{/mitKunde}{^mitKunde}Projektpartner{/mitKunde}'),
    paragraph('{#unterschriften}'),
    paragraph('{seite}: {name}, {firmaName} {ankerSignatur}'),
    paragraph('{/unterschriften}'),
  ],
  header: [paragraph('{firmaName}')],
});

const SPLIT =
  'Der Platzhalter ist in Word auf mehrere Textstücke verteilt (z. B. nur teilweise formatiert oder in ' +
  'mehreren Anläufen getippt). Bitte löschen und in einem Zug neu tippen.';

/** Every template the catalogue needs, valid, with some replaced. */
function folder(replaced: Record<string, Buffer> = {}, without: string[] = []): string {
  const files = Object.fromEntries(
    catalogueTemplates()
      .filter((name) => !without.includes(name))
      .map((name) => [name, replaced[name] ?? valid]),
  );
  return templatesFolder(files);
}

async function lint(dir: string) {
  const out: string[] = [];
  const code = await runTemplatesLint([dir], 'unused', { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out };
}

describe('npm run templates:lint', () => {
  it('passes on the repository templates', async () => {
    const result = await lint(loadConfig({}, '0').templatesDir);
    expect(result.out.at(-1)).toMatch(/^\d+ Vorlagen geprüft: keine Probleme\.$/);
    expect(result.code).toBe(0);
  });

  it('passes on templates that use only dictionary fields', async () => {
    expect(await lint(folder())).toEqual({ code: 0, out: ['9 Vorlagen geprüft: keine Probleme.'] });
  });

  it('names a placeholder Word split over runs, in body and header', async () => {
    const result = await lint(
      folder({
        'angebot-de.docx': docxFixture({
          body: [paragraph('Angebot für {kun', 'de}')],
          header: [paragraph('{#mit', 'Kunde}', 'Kunde{/mitKunde}')],
        }),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      `angebot-de.docx, Kopfzeile (header1.xml): {#mitKunde} – ${SPLIT}`,
      `angebot-de.docx, Haupttext: {kunde} – ${SPLIT}`,
      '9 Vorlagen geprüft: 2 Probleme.',
    ]);
  });

  it('names an unknown placeholder even when Word split it over runs', async () => {
    const result = await lint(
      folder({
        'angebot-de.docx': docxFixture({ body: [paragraph('Sehr geehrte{kunden', 'Name}')] }),
        'kuendigung-de.docx': docxFixture({
          body: [paragraph('{#unterschriften}{firmenname}{/unterschriften}')],
        }),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'angebot-de.docx, Haupttext: {kundenName} – Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md).',
      `angebot-de.docx, Haupttext: {kundenName} – ${SPLIT}`,
      'kuendigung-de.docx, Haupttext: {firmenname} – Unbekannter Platzhalter: nicht im Feldverzeichnis ' +
        '(docs/templates.md). Im Abschnitt erlaubt: seite, firma, name, funktion, ankerSignatur, ankerDatum, ' +
        'ankerName und alle Felder.',
      '9 Vorlagen geprüft: 3 Probleme.',
    ]);
  });

  it('refuses a section on a text field and a condition printed as text', async () => {
    const result = await lint(
      folder({ 'angebot-de.docx': docxFixture({ body: [paragraph('{#kunde}x{/kunde} {fristlos}')] }) }),
    );
    expect(result.out).toEqual([
      'angebot-de.docx, Haupttext: {#kunde} – „kunde“ ist ein Textfeld; {#…}/{^…} gehen nur mit Bedingungen ' +
        'und Schleifen. Gemeint ist wohl {kunde}.',
      'angebot-de.docx, Haupttext: {fristlos} – „fristlos“ ist eine Bedingung und kein Text: sie braucht ' +
        '{#fristlos}…{/fristlos}.',
      '9 Vorlagen geprüft: 2 Probleme.',
    ]);
  });

  it('names unbalanced sections and syntax errors with the part of the document', async () => {
    const result = await lint(
      folder({
        'angebot-de.docx': docxFixture({
          body: [paragraph('{#mitKunde}'), paragraph('ohne Ende')],
          header: [paragraph('{#fristlos}{#kuendigung}{/fristlos}{/kuendigung}')],
        }),
        'kuendigung-de.docx': docxFixture({ body: [paragraph('{firmaName')] }),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'angebot-de.docx, Kopfzeile (header1.xml): {#kuendigung} – Der Abschnitt wird mit {/fristlos} ' +
        'geschlossen statt mit {/kuendigung}.',
      'angebot-de.docx, Haupttext: {#mitKunde} – Der Abschnitt wird nie mit {/mitKunde} geschlossen.',
      'kuendigung-de.docx, Haupttext: {firmaName – Der Platzhalter wird geöffnet, aber nie mit „}“ geschlossen.',
      '9 Vorlagen geprüft: 3 Probleme.',
    ]);
  });

  it('names a catalogue template that does not exist, and a file that is no DOCX', async () => {
    const result = await lint(
      folder({ 'angebot-de.docx': Buffer.from('kein ZIP') }, ['rahmenvertrag-en.docx']),
    );
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'angebot-de.docx: Die Datei ist keine gültige DOCX-Datei. Bitte in Word als .docx speichern.',
      'rahmenvertrag-en.docx: Die Vorlage fehlt, gebraucht für 8 Dokumente (en-wm-k-rv-1, en-wm-k-rv-2, en-wm-pp-rv, …).',
      '8 Vorlagen geprüft: 2 Probleme.',
    ]);
  });

  it('checks a single file, and names what a misspelt placeholder likely means', async () => {
    const dir = templatesFolder({
      'neu.docx': docxFixture({ body: [paragraph('Sehr geehrte {ansprechpartnerKunbe}')] }),
    });
    const result = await lint(join(dir, 'neu.docx'));
    expect(result).toEqual({
      code: 1,
      out: [
        'neu.docx, Haupttext: {ansprechpartnerKunbe} – Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md). Gemeint: {ansprechpartnerKunde}?',
        '1 Vorlagen geprüft: 1 Problem.',
      ],
    });
    expect((await lint(join(dir, 'fehlt.docx'))).out[0]).toMatch(/fehlt\.docx kann nicht gelesen werden/);
  });

  it('explains its usage', async () => {
    const out: string[] = [];
    const code = await runTemplatesLint(['a', 'b'], 'x', {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(1);
    expect(out.join('\n')).toMatch(/Verwendung/);
  });
});
