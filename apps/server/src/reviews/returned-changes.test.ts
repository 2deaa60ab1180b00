import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { documentOf, elements, view } from '../test/tracked-view.js';
import { suggestionsOf } from './returned-changes.js';
import { readReturnedWordFile } from './returned-word-file.js';

const { templatesDir } = loadConfig({}, '0');
/** A contract as sent: the Rahmenvertrag's template, with tables, bookmarks, fields and numbering. */
const SENT = readFileSync(join(templatesDir, 'rahmenvertrag-de.docx'));
const REVIEWER = { name: 'Kim Kunde', at: new Date('2026-12-07T10:15:00Z') };

/** The sent file's document.xml with `edit` applied, packed as a Word file. */
function returnedFile(edit: (xml: string) => string): Buffer {
  const zip = new PizZip(SENT);
  zip.file('word/document.xml', edit(zip.file('word/document.xml')?.asText() ?? ''));
  return zip.generate({ type: 'nodebuffer' });
}

describe('a returned Word file as suggestions', () => {
  it('turns the edits of a file without tracked changes into tracked changes of the reviewer', async () => {
    const sentText = view(SENT, true);
    // The customer rewrites a sentence's words, removes a paragraph and adds one of their own.
    const target = sentText.find((text) => /Vertragslaufzeit|Laufzeit/.test(text) && text.length > 40);
    expect(target, 'a paragraph about the term').toBeDefined();
    const removed = sentText.filter((text) => text.length > 30).at(-2) ?? '';
    const returned = returnedFile((xml) => {
      let edited = xml.replace(
        /<w:t([^>]*)>([^<]*Laufzeit[^<]*)<\/w:t>/,
        (_all, attributes, text: string) =>
          `<w:t${attributes}>${text.replace('Laufzeit', 'Mindestlaufzeit')}</w:t>`,
      );
      // The second-to-last long paragraph removed whole.
      const paragraphs = [...edited.matchAll(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g)];
      const gone = paragraphs.find((p) => p[0].includes(removed.slice(0, 12).replace(/&/g, '&amp;')));
      expect(gone, 'the paragraph to remove').toBeDefined();
      if (gone) edited = edited.replace(gone[0], '');
      // A new paragraph after the first one.
      const first = paragraphs[0]?.[0] ?? '';
      return edited.replace(
        first,
        `${first}<w:p><w:r><w:t xml:space="preserve">Gerichtsstand ist Hamburg &amp; nicht München.</w:t></w:r></w:p>`,
      );
    });
    const parts = await readReturnedWordFile('vertrag-kunde.docx', returned);
    const suggestions = suggestionsOf(SENT, parts, REVIEWER);

    const returnedText = view(returned, true);
    expect(returnedText).not.toContain(removed);
    expect(returnedText).toContain('Gerichtsstand ist Hamburg & nicht München.');
    expect(suggestions.how).toBe('compared');
    expect(suggestions.changes).toBeGreaterThanOrEqual(3);
    // Rejecting every change gives back the version sent; accepting them, the customer's file.
    expect(view(suggestions.content, false)).toEqual(sentText);
    expect(view(suggestions.content, true)).toEqual(view(returned, true));
    // Every change is the reviewer's, at the upload's time.
    const document = documentOf(suggestions.content);
    const changes = [
      ...elements(document.documentElement as unknown as Element, 'w:ins'),
      ...elements(document.documentElement as unknown as Element, 'w:del'),
    ];
    expect(changes.length).toBe(suggestions.changes);
    for (const change of changes) {
      expect(change.getAttribute('w:author')).toBe('Kim Kunde');
      expect(change.getAttribute('w:date')).toBe('2026-12-07T10:15:00Z');
    }
    // Deleted text is deleted text (w:delText), as Word reads it.
    for (const del of elements(document.documentElement as unknown as Element, 'w:del'))
      expect(elements(del, 'w:t')).toHaveLength(0);
    const ids = changes.map((change) => change.getAttribute('w:id'));
    expect(new Set(ids).size).toBe(ids.length);
    // The changed word is a deletion and an insertion within its paragraph, not the paragraph replaced.
    const inserted = elements(document.documentElement as unknown as Element, 'w:ins').map((ins) =>
      elements(ins, 'w:t')
        .map((t) => t.textContent)
        .join(''),
    );
    expect(inserted.join('|')).toMatch(/Mindestlaufzeit/);
    expect(inserted).toContain('Gerichtsstand ist Hamburg & nicht München.');
  });

  it('keeps the tracked changes of a file edited with „Änderungen nachverfolgen“, labelled as the reviewer’s', async () => {
    const returned = returnedFile((xml) =>
      xml.replace(
        /(<w:body>)/,
        '$1<w:p><w:ins w:id="9001" w:author="LibreOffice-Benutzer" w:date="2026-12-06T09:00:00Z"><w:r><w:t>Neu.</w:t></w:r></w:ins><w:del w:id="9002" w:author="LibreOffice-Benutzer" w:date="2026-12-06T09:00:00Z"><w:r><w:delText>Alt.</w:delText></w:r></w:del></w:p>',
      ),
    );
    const suggestions = suggestionsOf(SENT, await readReturnedWordFile('zurueck.docx', returned), REVIEWER);
    expect(suggestions).toMatchObject({ how: 'kept', changes: 2 });
    const document = documentOf(suggestions.content);
    const authors = [
      ...elements(document.documentElement as unknown as Element, 'w:ins'),
      ...elements(document.documentElement as unknown as Element, 'w:del'),
    ].map((change) => change.getAttribute('w:author'));
    expect(authors).toEqual(['Kim Kunde', 'Kim Kunde']);
    expect(view(suggestions.content, true)[0]).toBe('Neu.');
    expect(view(suggestions.content, false)[0]).toBe('Alt.');
  });

  it('finds no change in a file sent back as it was', async () => {
    const suggestions = suggestionsOf(SENT, await readReturnedWordFile('gleich.docx', SENT), REVIEWER);
    expect(suggestions).toMatchObject({ how: 'compared', changes: 0 });
    expect(view(suggestions.content, true)).toEqual(view(SENT, true));
  });
});
