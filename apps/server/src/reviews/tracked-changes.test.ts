import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { documentOf, elements, view } from '../test/tracked-view.js';
import { suggestionsOf } from './returned-changes.js';
import { readReturnedWordFile } from './returned-word-file.js';
import { type Decision, decided, trackedChangesOf, withUniqueChangeIds } from './tracked-changes.js';

const { templatesDir } = loadConfig({}, '0');
const SENT = readFileSync(join(templatesDir, 'einzelauftrag-de.docx'));
const REVIEWER = { name: 'Kim Kunde', at: new Date('2026-12-07T10:15:00Z') };
const ADDED = 'Gerichtsstand ist Hamburg.';

/** The customer's file: a paragraph of theirs after the first, and the second-to-last long one removed. */
async function suggested(): Promise<{ content: Buffer; removed: string }> {
  const zip = new PizZip(SENT);
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  const removed =
    view(SENT, true)
      .filter((text) => text.length > 30)
      .at(-2) ?? '';
  const paragraphs = [...xml.matchAll(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g)].map((match) => match[0]);
  const gone = paragraphs.find((p) => p.includes(removed.slice(0, 12)));
  expect(gone, 'the paragraph to remove').toBeDefined();
  const first = paragraphs[0] ?? '';
  zip.file(
    'word/document.xml',
    xml.replace(gone ?? '', '').replace(first, `${first}<w:p><w:r><w:t>${ADDED}</w:t></w:r></w:p>`),
  );
  const returned = zip.generate({ type: 'nodebuffer' });
  const parts = await readReturnedWordFile('zurueck.docx', returned);
  return { content: withUniqueChangeIds(suggestionsOf(SENT, parts, REVIEWER).content), removed };
}

const changeElements = (docx: Uint8Array) => {
  const root = documentOf(docx).documentElement as unknown as Element;
  return [...elements(root, 'w:ins'), ...elements(root, 'w:del')];
};

describe('tracked changes decided one by one', () => {
  it('lists each change with its kind, text, context, author and time, and ids that are unique', async () => {
    const { content, removed } = await suggested();
    const changes = trackedChangesOf(content);
    const insert = changes.find((change) => change.kind === 'insert');
    const remove = changes.find((change) => change.kind === 'delete');
    expect(insert).toMatchObject({ text: ADDED, author: 'Kim Kunde', at: REVIEWER.at });
    expect(remove?.text.replace(/\s+/g, ' ')).toBe(removed.replace(/\s+/g, ' '));
    expect(remove?.context.slice(0, 20)).toBe(removed.replace(/\s+/g, ' ').trim().slice(0, 20));
    // One suggestion per paragraph: its mark's change goes with its text.
    expect(changes).toHaveLength(2);
    const ids = changeElements(content).map((change) => change.getAttribute('w:id'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('accepting all gives the customer’s text, rejecting all the text sent, and no change stays tracked', async () => {
    const { content } = await suggested();
    const all = (decision: Decision) =>
      decided(content, new Map(trackedChangesOf(content).map((change) => [change.changeId, decision])));
    const accepted = all('accepted');
    const rejected = all('rejected');
    expect(view(accepted, true)).toEqual(view(content, true));
    expect(view(rejected, true)).toEqual(view(SENT, true));
    expect(changeElements(accepted)).toHaveLength(0);
    expect(changeElements(rejected)).toHaveLength(0);
  });

  it('decides one and leaves the other tracked', async () => {
    const { content, removed } = await suggested();
    const changes = trackedChangesOf(content);
    const insert = changes.find((change) => change.kind === 'insert');
    const onlyInsert = decided(content, new Map([[insert?.changeId ?? '', 'accepted' as const]]));
    const left = trackedChangesOf(onlyInsert);
    expect(left.map((change) => change.kind)).toEqual(['delete']);
    // Shown as Word shows the rest rejected: the added paragraph kept, the removed one still there.
    const text = view(onlyInsert, false);
    expect(text).toContain(ADDED);
    expect(text.map((t) => t.replace(/\s+/g, ' '))).toContain(removed.replace(/\s+/g, ' '));
  });
});
