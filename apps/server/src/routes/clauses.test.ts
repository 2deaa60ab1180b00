import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ClauseComparison,
  type ClauseContent,
  type ClauseDetail,
  type ClauseSummary,
  type ClauseVersion,
  clauseTag,
  DOCX_MIME_TYPE,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { contractHolding } from '../test/clause-fixtures.js';
import { testDatabases } from '../test/databases.js';
import { editedTemplate } from '../test/template-edit.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { templatesDir } = loadConfig({}, '0');
/** The offer with a paragraph of its own placing the clause `haftung`, as legal would add it in Word. */
const offerPlacingHaftung = editedTemplate(readFileSync(join(templatesDir, 'angebot-de.docx')), [
  ['<w:body>', `<w:body><w:p><w:r><w:t>${clauseTag('haftung')}</w:t></w:r></w:p>`],
]);

const content = (de: string, en = 'Liability is limited to intent.'): ClauseContent => ({
  option: 'always',
  variants: [{ name: 'Standard', rule: null, de, en }],
});
const FIRST = 'Wir haften nur für Vorsatz.\n\nDie Haftung ist auf den Auftragswert begrenzt.';
const SECOND =
  'Wir haften nur für Vorsatz und grobe Fahrlässigkeit.\n\nDie Haftung ist auf den Auftragswert begrenzt.';

describe.each(testDatabases())('the clause library’s routes on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let ops: string;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
    ops = await t.signIn('ops@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token: string | null = legal,
  ) =>
    t.app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const publish = (
    key: string,
    version: number,
    replaces: number | null,
    comment = 'Geprüft',
    token = legal,
  ) => call('POST', `/backend/clauses/${key}/versions/${version}/publish`, { comment, replaces }, token);

  it('creates a clause with its first draft, lists it, and refuses a key taken', async () => {
    const created = await call('POST', '/backend/clauses', {
      key: 'haftung',
      name: 'Haftung',
      needsApproval: true,
      content: content(FIRST),
      comment: 'Erste Fassung',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      key: 'haftung',
      publishedVersion: null,
      drafts: 1,
      versions: [{ version: 1, status: 'Entwurf', createdBy: 'legal@demo.local', problems: [] }],
    });
    const list: ClauseSummary[] = (await call('GET', '/backend/clauses')).json();
    expect(list).toEqual([expect.objectContaining({ key: 'haftung', name: 'Haftung', templates: [] })]);
    const taken = await call(
      'POST',
      '/backend/clauses',
      { key: 'haftung', name: 'Noch eine', needsApproval: false, content: content('x'), comment: 'x' },
      ops,
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error: 'conflict',
      message: 'Eine Klausel mit dem Schlüssel „haftung“ gibt es schon.',
    });
    const unknown = await call('GET', '/backend/clauses/gibt-es-nicht');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Eine Klausel gibt-es-nicht gibt es nicht.');
    expect((await call('GET', '/backend/clauses/..%2Fconfig')).statusCode).toBe(404);
    expect((await call('GET', '/backend/clauses/haftung/versions/x/compare')).statusCode).toBe(404);
  });

  it('answers bad input with 400 and German messages, and changes nothing', async () => {
    const badKey = await call('POST', '/backend/clauses', {
      key: 'Haftung!',
      name: '',
      needsApproval: 'ja',
      content: { option: 'always', variants: [] },
      comment: '',
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json()).toMatchObject({
      error: 'invalid_input',
      message: 'Die Eingabe ist ungültig.',
      fields: {
        key: [expect.stringMatching(/^Der Schlüssel besteht aus 2 bis 40 Kleinbuchstaben/)],
        name: ['Bitte gib der Klausel einen Namen.'],
        'content.variants': ['Eine Klausel braucht mindestens eine Variante.'],
        comment: ['Bitte kurz beschreiben, was sich ändert.'],
      },
    });
    const cases: [string, 'POST' | 'PUT', string, unknown][] = [
      ['no body', 'POST', '/backend/clauses', undefined],
      ['a version without comment', 'POST', '/backend/clauses/haftung/versions', { content: content('x') }],
      [
        'a variant without name',
        'POST',
        '/backend/clauses/haftung/versions',
        {
          content: { option: 'always', variants: [{ name: ' ', rule: null, de: 'x', en: 'x' }] },
          comment: 'x',
        },
      ],
      ['settings without name', 'PUT', '/backend/clauses/haftung', { name: '', needsApproval: true }],
      [
        'a publication without comment',
        'POST',
        '/backend/clauses/haftung/versions/1/publish',
        { comment: '', replaces: null },
      ],
      ['a match ID that is no text', 'POST', '/backend/clauses/haftung/versions/1/trial', { matchId: 10001 }],
      ['a trial body that is no object', 'POST', '/backend/clauses/haftung/versions/1/trial', [1]],
    ];
    for (const [name, method, url, payload] of cases) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      const { message, fields } = response.json();
      expect(message, name).toBe('Die Eingabe ist ungültig.');
      for (const texts of Object.values(fields as Record<string, string[]>))
        for (const text of texts) expect(text, name).toMatch(/[äöüß]|Bitte|Die |Eine |Der /);
    }
    const detail: ClauseDetail = (await call('GET', '/backend/clauses/haftung')).json();
    expect(detail).toMatchObject({ name: 'Haftung', versions: [{ version: 1 }] });
  });

  it('stores what the check finds with a version and will not publish it', async () => {
    const response = await call('POST', '/backend/clauses/haftung/versions', {
      content: content('Wir haften für {gibtsNicht}.', ''),
      comment: 'Ohne Englisch',
    });
    expect(response.statusCode, response.body).toBe(201);
    const version: ClauseVersion = response.json();
    expect(version).toMatchObject({ version: 2, status: 'Entwurf', comment: 'Ohne Englisch' });
    expect(version.problems.map((problem) => problem.place)).toEqual([
      'Variante „Standard“, deutscher Text',
      'Variante „Standard“, englischer Text',
    ]);
    const refused = await publish('haftung', 2, null);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^Version 2 hat 2 Probleme und kann nicht veröffentlicht werden: /,
    );
  });

  it('publishes, tells the webhooks, refuses over a version not seen, rolls back, and audits each change', async () => {
    const endpoint = await call(
      'POST',
      '/backend/admin/webhooks',
      { url: 'https://93.184.215.14/hooks', events: ['clause.published'] },
      ops,
    );
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    // Paused: the events are kept for it, nothing is sent.
    const paused = await call(
      'PUT',
      `/backend/admin/webhooks/${endpoint.json().id}/active`,
      { active: false },
      ops,
    );
    expect(paused.statusCode, paused.body).toBe(200);

    const first = await publish('haftung', 1, null, 'Geprüft');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ publishedVersion: 1, drafts: 1 });
    expect(
      (await call('POST', '/backend/clauses/haftung/versions', { content: content(SECOND), comment: 'Grob' }))
        .statusCode,
    ).toBe(201);
    const stale = await publish('haftung', 3, null);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^Inzwischen ist Version 1 veröffentlicht/);
    const third = await publish('haftung', 3, 1, 'Erweitert');
    expect(third.statusCode, third.body).toBe(200);
    expect((third.json() as ClauseDetail).versions.map((v) => [v.version, v.status])).toEqual([
      [3, 'veröffentlicht'],
      [2, 'Entwurf'],
      [1, 'ersetzt'],
    ]);

    const comparison: ClauseComparison = (
      await call('GET', '/backend/clauses/haftung/versions/1/compare')
    ).json();
    expect(comparison).toMatchObject({ base: 3, version: 1 });
    expect(comparison.parts[0]?.paragraphs.map((p) => p.change)).toEqual(['changed', 'kept']);
    const withBase: ClauseComparison = (
      await call('GET', '/backend/clauses/haftung/versions/3/compare?base=1')
    ).json();
    expect(withBase.base).toBe(1);
    expect(withBase.parts[0]?.paragraphs[0]?.parts).toEqual(
      expect.arrayContaining([expect.objectContaining({ change: 'added' })]),
    );
    expect((await call('GET', '/backend/clauses/haftung/versions/3/compare?base=9')).statusCode).toBe(404);

    const back = await publish('haftung', 1, 3, 'Zurück', ops);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ publishedVersion: 1 });

    const renamed = await call('PUT', '/backend/clauses/haftung', {
      name: 'Haftung und Gewährleistung',
      needsApproval: false,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Haftung und Gewährleistung', needsApproval: false });

    const audit = await db
      .selectFrom('audit_entries')
      .select(['actor', 'action', 'new_value'])
      .where('subject', '=', 'haftung')
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => [entry.actor, entry.action])).toEqual([
      ['legal@demo.local', 'clause.create'],
      ['legal@demo.local', 'clause.version'],
      ['legal@demo.local', 'clause.publish'],
      ['legal@demo.local', 'clause.version'],
      ['legal@demo.local', 'clause.publish'],
      ['ops@demo.local', 'clause.rollback'],
      ['legal@demo.local', 'clause.settings'],
    ]);
    const events = await db.selectFrom('webhook_events').select(['type', 'payload']).orderBy('id').execute();
    expect(events.map((event) => [event.type, (event.payload as { data: unknown }).data])).toEqual([
      ['clause.published', { clause: 'haftung', version: 1, publishedBy: 'legal@demo.local' }],
      ['clause.published', { clause: 'haftung', version: 3, publishedBy: 'legal@demo.local' }],
      ['clause.published', { clause: 'haftung', version: 1, publishedBy: 'ops@demo.local' }],
    ]);
  });

  it('names the templates placing a clause, refuses to delete it, and deletes one no template places', async () => {
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/backend/templates/angebot-de.docx/versions?comment=Haftung',
      headers: { ...bearer(legal), 'content-type': DOCX_MIME_TYPE },
      payload: offerPlacingHaftung,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const detail: ClauseDetail = (await call('GET', '/backend/clauses/haftung')).json();
    expect(detail.usedInTemplates).toEqual([{ name: 'angebot-de.docx', published: false, versions: [2] }]);
    expect(detail.templates).toEqual([]);
    const refused = await call('DELETE', '/backend/clauses/haftung');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Die Klausel haftung kann nicht gelöscht werden: die Vorlage angebot-de.docx (Version 2) verwendet sie.',
    );
    expect((await call('GET', '/backend/clauses/haftung')).statusCode).toBe(200);

    const created = await call('POST', '/backend/clauses', {
      key: 'schweizer-recht',
      name: 'Schweizer Recht',
      needsApproval: false,
      content: content('Es gilt Schweizer Recht.', 'Swiss law applies.'),
      comment: 'Neu',
    });
    expect(created.statusCode, created.body).toBe(201);
    const deleted = await call('DELETE', '/backend/clauses/schweizer-recht');
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await call('GET', '/backend/clauses/schweizer-recht')).statusCode).toBe(404);
    expect((await call('DELETE', '/backend/clauses/schweizer-recht')).statusCode).toBe(404);
  });

  it('lists the running contracts whose document holds the clause, the outdated first', async () => {
    await publish('haftung', 3, 1, 'Wieder erweitert');
    const stored = async (matchId: string, version: number) => {
      const clauses = [{ key: 'haftung', version, variant: 'Standard', rule: null }];
      const { documentId } = await contractHolding(db, matchId, clauses, {
        docKey: 'de-wm-k-rv-1',
        fileName: 'Rahmenvertrag.docx',
        kind: 'rahmenvertrag',
        counterparty: 'Nordlicht Energie GmbH',
        endDate: null,
      });
      return documentId;
    };
    const current = await stored('PL-40001', 3);
    const older = await stored('PL-40002', 1);
    const detail: ClauseDetail = (await call('GET', '/backend/clauses/haftung')).json();
    expect(
      detail.contracts.map((use) => [use.matchId, use.documentId, use.version, use.outdated, use.title]),
    ).toEqual([
      ['PL-40002', older, 1, true, 'Rahmenvertrag Nordlicht Energie GmbH'],
      ['PL-40001', current, 3, false, 'Rahmenvertrag Nordlicht Energie GmbH'],
    ]);
  });

  it('is for legal staff and administrators only', async () => {
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', '/backend/clauses'],
      [
        'POST',
        '/backend/clauses',
        { key: 'fremd', name: 'x', needsApproval: false, content: content('x'), comment: 'x' },
      ],
      ['GET', '/backend/clauses/haftung'],
      ['PUT', '/backend/clauses/haftung', { name: 'x', needsApproval: false }],
      ['DELETE', '/backend/clauses/haftung'],
      ['POST', '/backend/clauses/haftung/versions', { content: content('x'), comment: 'x' }],
      ['POST', '/backend/clauses/haftung/versions/1/publish', { comment: 'x', replaces: 3 }],
      ['GET', '/backend/clauses/haftung/versions/1/compare'],
      ['POST', '/backend/clauses/haftung/versions/1/trial', {}],
    ];
    const consultant = await t.signIn('berater@demo.local');
    const leader = await t.signIn('leitung@demo.local');
    for (const [method, url, payload] of routes) {
      for (const token of [consultant, leader]) {
        const refused = await call(method, url, payload, token);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json()).toMatchObject({ error: 'forbidden' });
      }
      const anonymous = await call(method, url, payload, null);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    const detail: ClauseDetail = (await call('GET', '/backend/clauses/haftung')).json();
    expect(detail).toMatchObject({
      publishedVersion: 3,
      versions: [{ version: 3 }, { version: 2 }, { version: 1 }],
    });
  });
});
