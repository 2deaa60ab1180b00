import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  catalogueEntry,
  DOCX_MIME_TYPE,
  formatDateTime,
  type ResolvedMatch,
  type StoredDocument,
  VERSION_CONFLICT,
} from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { editedDocx } from '../test/docx-fixture.js';
import { docxText } from '../test/docx-text.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));

/** A customer framework contract: only legal staff (level 2) may generate, open and change it. */
const KEY = 'docx-de-wm-rv';

describe.each(testDatabases())('stored documents on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let carla: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
    carla = await t.signIn('carla.cetin@demo.local'); // legal staff as well
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  async function generate(): Promise<{ id: string; docx: Buffer }> {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${KEY}/${match.matchId}`,
      headers: bearer(legal),
      payload: { dataList: { vertragspartner_type: 'k' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { id: String(response.headers['x-document-id']), docx: response.rawPayload };
  }

  const metadata = (id: string, token = legal) =>
    t.app.inject({ method: 'GET', url: `/backend/documents/${id}`, headers: bearer(token) });

  const file = (id: string, version?: string, token = legal) =>
    t.app.inject({
      method: 'GET',
      url: `/backend/documents/${id}${version === undefined ? '' : `/versions/${version}`}/file`,
      headers: bearer(token),
    });

  const save = (id: string, body: Buffer, ifMatch: string | undefined, token = legal) =>
    t.app.inject({
      method: 'PUT',
      url: `/backend/documents/${id}`,
      headers: {
        ...bearer(token),
        'content-type': DOCX_MIME_TYPE,
        ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
      },
      payload: body,
    });

  async function versionsOf(id: string) {
    const response = await metadata(id);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as StoredDocument).versions;
  }

  it('answers the document with its generated version and the file of that version', async () => {
    const { id, docx } = await generate();
    const response = await metadata(id);
    expect(response.statusCode, response.body).toBe(200);
    const document: StoredDocument = response.json();
    expect(document).toEqual({
      id,
      matchId: match.matchId,
      docKey: KEY,
      fileName: expect.stringMatching(new RegExp(`^${match.matchId} Rahmenvertrag Kunde .*\\.docx$`)),
      createdBy: 'legal@demo.local',
      createdAt: expect.any(String),
      versions: [
        {
          version: 1,
          size: docx.byteLength,
          sha256: sha256Hex(docx),
          createdBy: 'legal@demo.local',
          createdAt: expect.any(String),
        },
      ],
    });

    const download = await file(id);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe(DOCX_MIME_TYPE);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="PL-/);
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['x-document-version']).toBe('1');
    expect(download.rawPayload.equals(docx)).toBe(true);
  });

  it('saves an edit as the next version and keeps every version downloadable', async () => {
    const { id, docx } = await generate();
    const second = editedDocx(docx, 'Von Legal ergänzt.');
    const response = await save(id, second, '"1"');
    expect(response.statusCode, response.body).toBe(200);
    const document: StoredDocument = response.json();
    expect(document.versions.map((v) => [v.version, v.createdBy])).toEqual([
      [2, 'legal@demo.local'],
      [1, 'legal@demo.local'],
    ]);
    expect(document.versions[0]).toMatchObject({ size: second.byteLength, sha256: sha256Hex(second) });

    const latest = await file(id);
    expect(latest.headers['x-document-version']).toBe('2');
    expect(latest.rawPayload.equals(second)).toBe(true);
    const v1 = await file(id, '1');
    const v2 = await file(id, '2');
    expect([v1.statusCode, v2.statusCode]).toEqual([200, 200]);
    expect(v1.headers['x-document-version']).toBe('1');
    expect(v1.rawPayload.equals(docx)).toBe(true);
    expect(v2.rawPayload.equals(second)).toBe(true);
    expect(docxText(v2.rawPayload)).toContain('Von Legal ergänzt.');
    expect(docxText(v1.rawPayload)).not.toContain('Von Legal ergänzt.');

    // A bare version number is as good as the quoted entity tag.
    const third = await save(id, editedDocx(second, 'Noch einmal.'), '2', carla);
    expect(third.statusCode, third.body).toBe(200);
    expect((third.json() as StoredDocument).versions[0]).toMatchObject({
      version: 3,
      createdBy: 'carla.cetin@demo.local',
    });
  });

  it('takes edits beyond the global body limit of 1 MB', async () => {
    const { id, docx } = await generate();
    const large = editedDocx(docx, 'Mit Scan.', randomBytes(3 * 1024 * 1024));
    const response = await save(id, large, '"1"');
    expect(response.statusCode, response.body).toBe(200);
    expect((await file(id)).rawPayload.equals(large)).toBe(true);
  });

  it('refuses an edit of an outdated version, naming who saved the newer one and when', async () => {
    const { id, docx } = await generate();
    expect((await save(id, editedDocx(docx, 'Carlas Stand.'), '"1"', carla)).statusCode).toBe(200);
    const [newest] = await versionsOf(id);
    if (!newest) throw new Error('no versions');

    const response = await save(id, editedDocx(docx, 'Lenas Stand.'), '"1"');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: VERSION_CONFLICT,
      message:
        `Das Dokument wurde inzwischen von carla.cetin@demo.local gespeichert (Version 2, ` +
        `${formatDateTime(new Date(newest.createdAt))}). Lade die neue Version, bevor du speicherst.`,
    });

    // A version that does not exist yet is no newer save of someone else's.
    const ahead = await save(id, editedDocx(docx, 'Lenas Stand.'), '"7"');
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json()).toMatchObject({
      error: VERSION_CONFLICT,
      message: expect.stringMatching(/^Version 7 gibt es nicht, die neueste ist Version 2 \(carla/),
    });
    expect((await versionsOf(id)).map((v) => v.version)).toEqual([2, 1]);
  });

  it('lets exactly one of two simultaneous edits of the same version win', async () => {
    const { id, docx } = await generate();
    for (let base = 1; base <= 3; base++) {
      const edits = [editedDocx(docx, `A${base}`), editedDocx(docx, `B${base}`)];
      const responses = await Promise.all([
        save(id, edits[0] as Buffer, `"${base}"`),
        save(id, edits[1] as Buffer, `"${base}"`, carla),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const loser = responses.find((r) => r.statusCode === 409);
      expect(loser?.json().error).toBe(VERSION_CONFLICT);
      const winner = responses.findIndex((r) => r.statusCode === 200);
      const [newest, ...older] = await versionsOf(id);
      expect(newest).toMatchObject({ version: base + 1, sha256: sha256Hex(edits[winner] as Buffer) });
      expect(older).toHaveLength(base);
    }
  });

  it('asks for the edited version when If-Match is missing or names none (428)', async () => {
    const { id, docx } = await generate();
    for (const ifMatch of [undefined, '', '*', 'W/"1"', '"0"', '"abc"', '"1', '99999999999']) {
      const response = await save(id, editedDocx(docx, 'Ohne Version.'), ifMatch);
      expect(response.statusCode, String(ifMatch)).toBe(428);
      expect(response.json()).toEqual({
        error: 'precondition_required',
        message: expect.stringContaining('welche Version du bearbeitet hast'),
      });
    }
    expect(await versionsOf(id)).toHaveLength(1);
  });

  it('refuses a body that is not a DOCX (400)', async () => {
    const { id } = await generate();
    const zipWithoutDocument = new PizZip().file('notes.txt', 'kein Word').generate({ type: 'nodebuffer' });
    for (const body of [Buffer.from('Das ist kein Word-Dokument.'), zipWithoutDocument, Buffer.alloc(0)]) {
      const response = await save(id, body, '"1"');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_input',
        message: 'Die Datei ist kein gültiges Word-Dokument (DOCX).',
      });
    }
    const json = await t.app.inject({
      method: 'PUT',
      url: `/backend/documents/${id}`,
      headers: { ...bearer(legal), 'if-match': '"1"' },
      payload: { content: 'UEsDBA==' },
    });
    expect(json.statusCode).toBe(400);
    expect(await versionsOf(id)).toHaveLength(1);
  });

  it('refuses a body over 20 MB (413)', async () => {
    const { id } = await generate();
    const response = await save(id, Buffer.alloc(20 * 1024 * 1024 + 1), '"1"');
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('payload_too_large');
  });

  it('refuses edits of documents that are still rendering or failed (409), which have no file yet', async () => {
    const repository = new DocumentsRepository(db);
    const entry = catalogueEntry(KEY);
    if (!entry) throw new Error(KEY);
    const pending = {
      matchId: match.matchId,
      docKey: KEY,
      form: entry.form,
      createdBy: 'legal@demo.local',
      fileName: 'Entwurf.docx',
      dataList: { vertragspartner_type: 'k' as const },
      dataSha256: sha256Hex('{}'),
    };
    const rendering = await repository.create(pending);
    const failed = await repository.create(pending);
    await repository.fail(failed, 'Vorlage fehlt');
    const { docx } = await generate();
    for (const id of [rendering, failed]) {
      const response = await save(id, docx, '"1"');
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('document_not_ready');
      expect((await file(id)).statusCode).toBe(404);
      expect(await versionsOf(id)).toEqual([]);
    }
  });

  it('answers a version that does not exist with 404, one that cannot exist with 400', async () => {
    const { id } = await generate();
    expect((await file(id, '2')).statusCode).toBe(404);
    for (const version of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const response = await file(id, version);
      expect(response.statusCode, version).toBe(400);
      expect(response.json().error).toBe('invalid_input');
    }
  });

  describe('access', () => {
    let id: string;
    let docx: Buffer;
    beforeAll(async () => {
      ({ id, docx } = await generate());
    });

    const everyRoute = (documentId: string, headers: Record<string, string>) => [
      t.app.inject({ method: 'GET', url: `/backend/documents/${documentId}`, headers }),
      t.app.inject({ method: 'GET', url: `/backend/documents/${documentId}/file`, headers }),
      t.app.inject({ method: 'GET', url: `/backend/documents/${documentId}/versions/1/file`, headers }),
      t.app.inject({
        method: 'PUT',
        url: `/backend/documents/${documentId}`,
        headers: { ...headers, 'content-type': DOCX_MIME_TYPE, 'if-match': '"1"' },
        payload: editedDocx(docx, 'Unbefugt.'),
      }),
    ];

    it.each([
      ['a consultant (level 1)', 'berater@demo.local'],
      ['management (level 3), who may not generate it either', 'leitung@demo.local'],
      ['someone without a level', 'neu@demo.local'],
    ])('refuses %s on every route (403)', async (_who, email) => {
      const token = await t.signIn(email);
      for (const response of await Promise.all(everyRoute(id, bearer(token)))) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().error).toBe('forbidden');
      }
      expect(await versionsOf(id)).toHaveLength(1);
    });

    it('refuses requests without a token on every route (401)', async () => {
      for (const response of await Promise.all(everyRoute(id, {}))) {
        expect(response.statusCode).toBe(401);
      }
    });

    it.each([
      ['unknown', randomUUID()],
      ['malformed', 'kein-dokument'],
    ])('answers an %s id with 404 on every route', async (_case, documentId) => {
      for (const response of await Promise.all(everyRoute(documentId, bearer(legal)))) {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json()).toEqual({ error: 'not_found', message: 'Dieses Dokument gibt es nicht.' });
      }
    });
  });
});
