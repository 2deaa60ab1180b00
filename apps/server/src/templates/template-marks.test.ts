import type { DocumentApproval, ResolvedMatch, TemplateMarks } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { changeApprovalRules } from '../test/approval-rules.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { changeWord as changeWordIn, withParagraphChanged } from '../test/document-edit.js';
import { docxText } from '../test/docx-text.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

/** Remote and onsite margins of 30 %: no margin reason. */
const HEALTHY: ResolvedMatch = { ...demoMatch, matchId: 'PL-93001', vk: 1000, ek: 700, vk2: 1000, ek2: 700 };
const TEMPLATE = 'rahmenvertrag-de.docx';
const KEY = 'docx-de-wm-rv';
const MARKS = `/backend/templates/${TEMPLATE}/versions/1/marks`;

/** The generated document's paragraph made of the template paragraph `marked` (found by a fixed piece of it). */
function paragraphOf(marked: string, generated: Uint8Array): string {
  const pieces = marked.split(/\{[^}]*\}/).filter((piece) => piece.length >= 20);
  const paragraph = docxText(generated)
    .split('\n')
    .find((text) => pieces.some((piece) => text.includes(piece)));
  if (!paragraph) throw new Error(`no paragraph made of „${marked.slice(0, 60)}…“`);
  return paragraph;
}

describe.each(testDatabases())('paragraphs marked „Änderung braucht Freigabe“ on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let consultant: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([HEALTHY]);
    t = await createTestApp(db, { demoStaff: true });
    [legal, consultant] = await Promise.all([t.signIn('legal@demo.local'), t.signIn('berater@demo.local')]);
    // Only the marks hold a document back: not any edit, not the margin.
    await changeApprovalRules(t, legal, { editedText: false, markedParagraphs: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const marks = (token = legal, payload?: unknown) =>
    t.app.inject({
      method: payload === undefined ? 'GET' : 'PUT',
      url: MARKS,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const changeWord = (documentId: string, paragraph: string) =>
    changeWordIn(t.app, legal, documentId, paragraph);
  const approval = async (documentId: string): Promise<DocumentApproval> =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/backend/documents/${documentId}/approval`,
        headers: bearer(legal),
      })
    ).json();

  it('marks a paragraph of a version, and holds back a document whose edit changed it — only that one', async () => {
    const offered: TemplateMarks = (await marks()).json();
    expect(offered.marks).toEqual([]);
    // A paragraph with a placeholder is marked; another one is edited first.
    // The marked one has conditions: generation keeps the customer's branch and drops the partner's.
    const marked = offered.paragraphs.find((p) => p.includes('{#mitKunde}'));
    const other = offered.paragraphs.find((p) => !p.includes('{') && p.length > 80 && p !== marked);
    if (!marked || !other) throw new Error('two long paragraphs expected');

    expect((await marks(consultant)).statusCode).toBe(403);
    const unknown = await marks(legal, { marks: [{ paragraph: 'Gibt es nicht.', label: 'Haftung' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields['marks.0.paragraph']).toEqual([
      'Diesen Absatz gibt es in dieser Version nicht.',
    ]);
    const set = await marks(legal, { marks: [{ paragraph: marked, label: 'Haftung' }] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().marks).toEqual([{ paragraph: marked, label: 'Haftung' }]);
    const audited = await db
      .selectFrom('audit_entries')
      .select(['action', 'new_value'])
      .where('action', '=', 'template.marks')
      .execute();
    expect(audited).toEqual([{ action: 'template.marks', new_value: 'Haftung' }]);

    const generated = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${KEY}/${HEALTHY.matchId}`,
      headers: bearer(legal),
      payload: { dataList: demoDataList(KEY) },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const documentId = generated.headers['x-document-id'] as string;

    await changeWord(documentId, paragraphOf(other, generated.rawPayload));
    expect(await approval(documentId)).toMatchObject({ version: 2, required: false, reasons: [] });

    await changeWord(documentId, paragraphOf(marked, generated.rawPayload));
    expect(await approval(documentId)).toMatchObject({
      version: 3,
      required: true,
      reasons: [{ kind: 'marked_paragraph', label: 'Haftung' }],
      reasonTexts: ['Absatz „Haftung“ geändert (braucht bei Änderung eine Freigabe)'],
    });
  });

  it('carries the marks whose paragraph a new version keeps, and drops one whose paragraph it changed', async () => {
    const offered: TemplateMarks = (await marks()).json();
    const long = offered.paragraphs.filter((p) => !p.includes('{') && p.length > 80);
    const [kept, changed] = long;
    if (!kept || !changed) throw new Error('two long paragraphs expected');
    const set = await marks(legal, {
      marks: [
        { paragraph: kept, label: 'Kundenschutz' },
        { paragraph: changed, label: 'Vertragsstrafe' },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    const current = await t.app.inject({
      method: 'GET',
      url: `/backend/templates/${TEMPLATE}/versions/1/file`,
      headers: bearer(legal),
    });
    expect(current.statusCode, current.body).toBe(200);
    const zip = new PizZip(current.rawPayload);
    zip.file(
      'word/document.xml',
      withParagraphChanged(zip.file('word/document.xml')?.asText() ?? '', changed),
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/backend/templates/${TEMPLATE}/versions?comment=${encodeURIComponent('Vertragsstrafe neu')}`,
      headers: {
        ...bearer(legal),
        'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      payload: zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const version = uploaded.json().version as number;
    const next = await t.app.inject({
      method: 'GET',
      url: `/backend/templates/${TEMPLATE}/versions/${version}/marks`,
      headers: bearer(legal),
    });
    expect(next.json<TemplateMarks>().marks).toEqual([{ paragraph: kept, label: 'Kundenschutz' }]);
  });
});
