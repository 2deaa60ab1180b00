import type { GenerationApprovalRequired, ResolvedMatch } from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

/** Remote (1000 − 700) ÷ 1000 = 30 %: no margin reason. */
const HEALTHY: ResolvedMatch = { ...demoMatch, matchId: 'PL-94001', vk: 1000, ek: 700, vk2: 1000, ek2: 700 };
/** Remote (1000 − 876) ÷ 1000 = 12,4 %, below the default 15 %. */
const THIN: ResolvedMatch = { ...demoMatch, matchId: 'PL-94002', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };

const LEGAL = 'legal@demo.local';
const LEITUNG = 'leitung@demo.local';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const THIN_REASON = 'Marge remote 12,4 % liegt unter 15 % (WM)';

/** Whether the bytes are a DOCX (a ZIP with the document's body), rather than a JSON error. */
function isDocx(bytes: Buffer): boolean {
  try {
    return new PizZip(bytes).file('word/document.xml') !== null;
  } catch {
    return false;
  }
}

/**
 * Generation with the editors that hand out the final file (`download`: the answer is saved as it is;
 * `google`: the browser uploads the answer to Drive): a document whose version needs an approval is
 * stored, but its answer carries no file. The built-in editor keeps answering the file.
 */
describe.each(testDatabases())('generation held back for Freigabe on $name', (database) => {
  let db: Db;
  const apps: Partial<Record<'download' | 'google' | 'builtin', TestApp>> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([HEALTHY, THIN]);
    for (const editor of ['download', 'google', 'builtin'] as const) {
      apps[editor] = await createTestApp(db, { demoStaff: true, env: { DOCUMENT_EDITOR: editor } });
    }
    for (const email of [LEGAL, LEITUNG]) tokens[email] = await (apps.download as TestApp).signIn(email);
  });
  afterAll(async () => {
    for (const t of Object.values(apps)) await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const generate = (editor: keyof typeof apps, path: string, key: string, matchId: string) =>
    (apps[editor] as TestApp).app.inject({
      method: 'POST',
      url: `/backend/${path}/${key}/${matchId}`,
      headers: as(LEGAL),
      payload: { dataList: demoDataList(key) },
    });

  describe.each(['download', 'google'] as const)('with DOCUMENT_EDITOR=%s', (editor) => {
    const app = () => (apps[editor] as TestApp).app;

    it('stores a thin deal’s contract but answers 409 approval_required with its id and reasons, no file', async () => {
      const answer = await generate(editor, 'generateDocx', 'docx-de-wm-rv', THIN.matchId);
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.headers['content-type']).toContain('application/json');
      expect(answer.headers['content-disposition']).toBeUndefined();
      expect(isDocx(answer.rawPayload)).toBe(false);
      const body: GenerationApprovalRequired = answer.json();
      expect(body).toMatchObject({ error: 'approval_required', reasonTexts: [THIN_REASON] });
      expect(body.reasons).toHaveLength(1);
      expect(body.message).toContain(THIN_REASON);
      expect(body.message).toContain('Freigabe');
      // Stored as always: its row, its version, and the same id in the header.
      expect(answer.headers['x-document-id']).toBe(body.documentId);
      const stored = await db
        .selectFrom('documents')
        .select(['doc_key', 'match_id'])
        .where('id', '=', body.documentId)
        .executeTakeFirst();
      expect(stored).toEqual({ doc_key: 'docx-de-wm-rv', match_id: THIN.matchId });
      // Nothing is asked for until someone asks.
      expect(
        await db
          .selectFrom('approval_requests')
          .select('id')
          .where('document_id', '=', body.documentId)
          .execute(),
      ).toEqual([]);
      expect(
        (
          await app().inject({
            method: 'GET',
            url: `/backend/documents/${body.documentId}/download`,
            headers: as(LEGAL),
          })
        ).statusCode,
      ).toBe(409);
    });

    it('hands the file out through the download once the version is released', async () => {
      const held: GenerationApprovalRequired = (
        await generate(editor, 'generateDocx', 'docx-de-wm-rv', THIN.matchId)
      ).json();
      const asked = await app().inject({
        method: 'POST',
        url: `/backend/documents/${held.documentId}/approval`,
        headers: as(LEGAL),
      });
      expect(asked.statusCode, asked.body).toBe(201);
      const approved = await app().inject({
        method: 'POST',
        url: `/backend/approvals/${asked.json().id}/approve`,
        headers: as(LEITUNG),
        payload: {},
      });
      expect(approved.statusCode, approved.body).toBe(200);
      const file = await app().inject({
        method: 'GET',
        url: `/backend/documents/${held.documentId}/download`,
        headers: as(LEGAL),
      });
      expect(file.statusCode, file.body).toBe(200);
      expect(isDocx(file.rawPayload)).toBe(true);
    });

    it('answers the file as before where no approval is needed: a healthy deal’s contract and offer', async () => {
      for (const [path, key] of [
        ['generateDocx', 'docx-de-wm-rv'],
        ['generateDocxOffer', 'angebot-wm'],
      ] as const) {
        const answer = await generate(editor, path, key, HEALTHY.matchId);
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.headers['content-type']).toBe(DOCX);
        expect(answer.headers['x-document-id']).toBeTruthy();
        expect(isDocx(answer.rawPayload)).toBe(true);
      }
    });

    it('holds back a thin deal’s offer too', async () => {
      const answer = await generate(editor, 'generateDocxOffer', 'angebot-wm', THIN.matchId);
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json()).toMatchObject({ error: 'approval_required', reasonTexts: [THIN_REASON] });
    });
  });

  it('keeps the built-in editor’s answer: the file, whose editor gates the download', async () => {
    const answer = await generate('builtin', 'generateDocx', 'docx-de-wm-rv', THIN.matchId);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(isDocx(answer.rawPayload)).toBe(true);
    const id = answer.headers['x-document-id'] as string;
    const download = await (apps.builtin as TestApp).app.inject({
      method: 'GET',
      url: `/backend/documents/${id}/download`,
      headers: as(LEGAL),
    });
    expect(download.statusCode).toBe(409);
  });
});
