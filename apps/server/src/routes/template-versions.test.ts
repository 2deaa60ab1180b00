import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CatalogueEntry,
  catalogueEntry,
  DOCX_MIME_TYPE,
  type TemplateComparison,
  type TemplateDetail,
  type TemplateSummary,
  type TemplateTrial,
  type TemplateVersion,
} from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { loadCompanyData } from '../templates/companies.js';
import { richestDemoMatch, sampleDataList } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { docxText } from '../test/docx-text.js';
import { editedTemplate, withPart } from '../test/template-edit.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir, templatesDir } = loadConfig({}, '0');
const match = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const companyData = await loadCompanyData(configDir);
const offer = readFileSync(join(templatesDir, 'angebot-de.docx'));
const offerEntry = catalogueEntry('angebot-wm') as CatalogueEntry;
const OLD_TEXT = 'An dieses Angebot halten wir uns vier Wochen';
const NEW_TEXT = 'An dieses Angebot halten wir uns sechs Wochen';
/** The offer with a misspelt placeholder, and the corrected one with a changed sentence. */
const misspelt = editedTemplate(offer, [['{angebotStundensatz}', '{angebotStundensaz}']]);
const changed = editedTemplate(offer, [[OLD_TEXT, NEW_TEXT]]);

describe.each(testDatabases())('the template library on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const get = (url: string, token: string | null = legal) =>
    t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  const upload = (name: string, content: Buffer, comment = 'Änderung', token: string | null = legal) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/templates/${name}/versions?comment=${encodeURIComponent(comment)}`,
      headers: { ...(token ? bearer(token) : {}), 'content-type': DOCX_MIME_TYPE },
      payload: content,
    });
  const publish = (
    name: string,
    version: number,
    replaces: number | null,
    token = legal,
    comment = 'Geprüft',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/templates/${name}/versions/${version}/publish`,
      headers: bearer(token),
      payload: { comment, replaces },
    });
  const generateOffer = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/angebot-wm/${match.matchId}`,
      headers: bearer(legal),
      payload: { dataList: sampleDataList(offerEntry, match, companyData.signatories) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return docxText(response.rawPayload);
  };
  const versionCount = async (name: string) =>
    ((await get(`/backend/templates/${name}`)).json() as TemplateDetail).versions.length;

  it('takes every template file as version 1, published, and lists each with its family and keys', async () => {
    const response = await get('/backend/templates');
    expect(response.statusCode).toBe(200);
    const list: TemplateSummary[] = response.json();
    expect(list.map((template) => template.name)).toEqual([
      'angebot-de.docx',
      'einzelauftrag-de.docx',
      'einzelauftrag-en.docx',
      'kuendigung-de.docx',
      'rahmenvertrag-de.docx',
      'rahmenvertrag-en.docx',
      'verlaengerung-de.docx',
      'verlaengerung-en.docx',
      'zusatzvereinbarung-de.docx',
    ]);
    for (const template of list) {
      expect(template).toMatchObject({ publishedVersion: 1, publishedBy: 'Vorlagenordner', drafts: 0 });
      expect(template.keys.length).toBeGreaterThan(0);
    }
    expect(list[0]).toMatchObject({ families: ['Angebot'], keys: ['angebot-wm', 'angebot-we'] });
    expect(list.find((template) => template.name === 'verlaengerung-en.docx')).toMatchObject({
      families: ['Verlängerung'],
      keys: [
        'verlaengerung-en-wm-k',
        'verlaengerung-en-wm-pp',
        'verlaengerung-en-we-k',
        'verlaengerung-en-we-pp',
      ],
    });
    const detail: TemplateDetail = (await get('/backend/templates/angebot-de.docx')).json();
    expect(detail.versions).toEqual([
      expect.objectContaining({
        version: 1,
        status: 'veröffentlicht',
        sha256: sha256Hex(offer),
        problems: [],
      }),
    ]);
    const file = await get('/backend/templates/angebot-de.docx/versions/1/file');
    expect(file.headers['content-type']).toBe(DOCX_MIME_TYPE);
    expect(sha256Hex(file.rawPayload)).toBe(sha256Hex(offer));
  });

  it('names a misspelt placeholder with its place and what it likely means, and will not publish it', async () => {
    const response = await upload('angebot-de.docx', misspelt, 'Tippfehler');
    expect(response.statusCode, response.body).toBe(201);
    const version: TemplateVersion = response.json();
    expect(version).toMatchObject({
      version: 2,
      status: 'Entwurf',
      comment: 'Tippfehler',
      createdBy: 'legal@demo.local',
    });
    expect(version.problems).toEqual([
      expect.objectContaining({
        place: 'Haupttext',
        tag: '{angebotStundensaz}',
        suggestion: '{angebotStundensatz}',
      }),
    ]);
    const refused = await publish('angebot-de.docx', 2, 1);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Version 2 hat ein Problem und kann nicht veröffentlicht werden: Haupttext: {angebotStundensaz} – ' +
        'Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md). Gemeint: {angebotStundensatz}?',
    );
  });

  it('finds signature anchors a contract lost', async () => {
    const contract = readFileSync(join(templatesDir, 'rahmenvertrag-de.docx'));
    const response = await upload(
      'rahmenvertrag-de.docx',
      editedTemplate(contract, [['{ankerSignatur}', '']]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const problems = (response.json() as TemplateVersion).problems;
    // One problem per gap, naming the keys that have it: every contract key of the template.
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatchObject({ place: 'Unterschriftsblock', tag: '{#unterschriften}' });
      expect(problem.message).toMatch(/^Im Dokument fehlen die Unterschriftsanker \/sig_firma\/, /);
    }
    const named = problems.map((problem) => problem.message).join(' ');
    for (const key of ['de-wm-k-rv-1', 'de-we-k-rv-2', 'de-wp-pp-rv', 'docx-de-wm-rv'])
      expect(named).toContain(key);
  });

  it('tries a corrected version on a deal and shows the changed paragraph against the published one', async () => {
    const response = await upload('angebot-de.docx', changed, 'Bindefrist sechs Wochen');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ version: 3, problems: [] });

    const trial: TemplateTrial = (await get('/backend/templates/angebot-de.docx/versions/3/trial')).json();
    expect(trial.matchId).toBe(match.matchId);
    expect(trial.documents.map((document) => [document.key, document.error])).toEqual([
      ['angebot-wm', null],
      ['angebot-we', null],
    ]);
    const other = (await get(`/backend/templates/angebot-de.docx/versions/3/trial?matchId=PL-10002`)).json();
    expect(other.matchId).toBe('PL-10002');
    // PL-10011 has no contact, address, place, end or task description: the offer shows lines for them.
    const sparse: TemplateTrial = (
      await get('/backend/templates/angebot-de.docx/versions/3/trial?matchId=PL-10011')
    ).json();
    expect(sparse.documents[0]?.blankFields.map((field) => field.name)).toEqual(
      expect.arrayContaining([
        'adresseKunde',
        'ansprechpartnerKunde',
        'aufgabenbeschreibung',
        'einsatzort',
        'enddatum',
      ]),
    );
    expect(sparse.documents[0]?.blankFields.map((field) => field.name)).not.toContain('kunde');
    const document = await get('/backend/templates/angebot-de.docx/versions/3/trial/angebot-wm');
    expect(document.statusCode).toBe(200);
    expect(docxText(document.rawPayload)).toContain(`${NEW_TEXT} ab dem oben genannten Datum`);
    expect(docxText(document.rawPayload)).toContain(match.kunde);
    expect(
      (await get('/backend/templates/angebot-de.docx/versions/3/trial?matchId=PL-99999')).statusCode,
    ).toBe(404);
    expect(
      (await get('/backend/templates/angebot-de.docx/versions/3/trial?matchId=PL-10%2F01')).statusCode,
    ).toBe(400);
    expect((await get('/backend/templates/angebot-de.docx/versions/3/trial/de-wm-k-rv-1')).statusCode).toBe(
      404,
    );

    const comparison: TemplateComparison = (
      await get('/backend/templates/angebot-de.docx/versions/3/comparison')
    ).json();
    expect(comparison).toMatchObject({ base: 1, version: 3 });
    const changes = comparison.paragraphs.filter((paragraph) => paragraph.change !== 'kept');
    expect(changes).toEqual([
      {
        change: 'changed',
        parts: expect.arrayContaining([
          { text: 'vier', change: 'removed' },
          { text: 'sechs', change: 'added' },
        ]),
      },
    ]);
    expect(
      changes[0]?.parts
        .filter((part) => part.change !== 'added')
        .map((part) => part.text)
        .join(''),
    ).toContain(OLD_TEXT);
    expect(comparison.paragraphs.length).toBeGreaterThan(30);
  });

  it('publishes a checked draft for the next document, records it, and rolls back', async () => {
    expect(await generateOffer()).toContain(OLD_TEXT);
    // Someone who looked before version 1 was replaced is told, not overruled.
    expect((await publish('angebot-de.docx', 3, 2)).statusCode).toBe(409);
    const published = await publish('angebot-de.docx', 3, 1, legal, 'Bindefrist verlängert');
    expect(published.statusCode, published.body).toBe(200);
    const detail: TemplateDetail = published.json();
    expect(detail).toMatchObject({ publishedVersion: 3, publishedBy: 'legal@demo.local', drafts: 0 });
    expect(detail.versions.map((version) => [version.version, version.status])).toEqual([
      [3, 'veröffentlicht'],
      [2, 'Entwurf'],
      [1, 'ersetzt'],
    ]);
    expect(await generateOffer()).toContain(NEW_TEXT);
    const newest = await db
      .selectFrom('documents')
      .select(['template_version', 'template_sha256'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(newest).toEqual({ template_version: 3, template_sha256: sha256Hex(changed) });
    const history = await get(`/backend/matches/${match.matchId}/documents`);
    expect(history.json()[0]).toMatchObject({ docKey: 'angebot-wm', templateVersion: 3 });

    expect((await publish('angebot-de.docx', 3, 3)).statusCode).toBe(409);
    const rolledBack = await publish('angebot-de.docx', 1, 3, legal, 'Zurück zu vier Wochen');
    expect(rolledBack.statusCode, rolledBack.body).toBe(200);
    expect(await generateOffer()).toContain(OLD_TEXT);
    const audit = await db
      .selectFrom('audit_entries')
      .select(['actor', 'action', 'subject', 'old_value', 'new_value'])
      .where('subject', '=', 'angebot-de.docx')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      {
        actor: 'legal@demo.local',
        action: 'template.publish',
        subject: 'angebot-de.docx',
        old_value: 'Version 1',
        new_value: 'Version 3: Bindefrist verlängert',
      },
      {
        actor: 'legal@demo.local',
        action: 'template.rollback',
        subject: 'angebot-de.docx',
        old_value: 'Version 3',
        new_value: 'Version 1: Zurück zu vier Wochen',
      },
    ]);
  });

  it('lets one of two people publishing at once win and tells the other', async () => {
    const a = (
      await upload('kuendigung-de.docx', readFileSync(join(templatesDir, 'kuendigung-de.docx')), 'A')
    ).json();
    const b = (
      await upload('kuendigung-de.docx', readFileSync(join(templatesDir, 'kuendigung-de.docx')), 'B')
    ).json();
    const ops = await t.signIn('ops@demo.local');
    const answers = await Promise.all([
      publish('kuendigung-de.docx', a.version, 1),
      publish('kuendigung-de.docx', b.version, 1, ops),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json().message).toMatch(
      /^Inzwischen ist Version [23] veröffentlicht/,
    );
  });

  it('renders each document from one whole version while another is published', async () => {
    const detail: TemplateDetail = (await get('/backend/templates/angebot-de.docx')).json();
    const renders = Array.from({ length: 8 }, () => generateOffer());
    const published = publish('angebot-de.docx', 3, detail.publishedVersion);
    const texts = await Promise.all(renders);
    expect((await published).statusCode).toBe(200);
    for (const text of texts) expect(text.includes(OLD_TEXT) !== text.includes(NEW_TEXT)).toBe(true);
    const recorded = await db
      .selectFrom('documents')
      .select('template_version')
      .where('doc_key', '=', 'angebot-wm')
      .orderBy('created_at', 'desc')
      .limit(8)
      .execute();
    expect(recorded.every((row) => row.template_version === 1 || row.template_version === 3)).toBe(true);
  });

  describe('refuses a file that cannot be a template, with a German reason, and stores nothing', () => {
    const hostile: [string, Buffer, RegExp][] = [
      ['not a zip at all', Buffer.from('Das ist kein Word-Dokument.'), /keine gültige DOCX-Datei/],
      ['a truncated DOCX', offer.subarray(0, offer.length / 2), /keine gültige DOCX-Datei/],
      [
        'an encrypted DOCX (an OLE compound file)',
        Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]),
        /mit einem Kennwort verschlüsselt/,
      ],
      ['a macro-enabled file', withPart(offer, 'word/vbaProject.bin', Buffer.alloc(64)), /enthält Makros/],
      [
        'XML that expands entities',
        editedTemplate(offer, [
          [
            '<w:document',
            '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><w:document',
          ],
        ]),
        /Dokumenttyp-Definition/,
      ],
      [
        'a zip without a document',
        new PizZip().file('hallo.txt', 'hallo').generate({ type: 'nodebuffer' }),
        /keine gültige DOCX-Datei/,
      ],
    ];
    it.each(hostile)('%s', async (_name, content, message) => {
      const before = await versionCount('einzelauftrag-de.docx');
      const response = await upload('einzelauftrag-de.docx', content);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'not_docx', message: expect.stringMatching(message) });
      expect(await versionCount('einzelauftrag-de.docx')).toBe(before);
    });

    it('an empty file and one of 30 MB', async () => {
      expect((await upload('einzelauftrag-de.docx', Buffer.alloc(0))).statusCode).toBe(400);
      const large = await upload('einzelauftrag-de.docx', Buffer.alloc(30 * 1024 * 1024));
      expect(large.statusCode).toBe(413);
      expect(large.json().message).toMatch(/höchstens 10 MB/);
      expect(await versionCount('einzelauftrag-de.docx')).toBe(1);
    });
  });

  it('knows only the catalogue’s templates and their versions', async () => {
    expect((await get('/backend/templates/..%2Fconfig%2Fcompanies.json')).statusCode).toBe(404);
    expect((await get('/backend/templates/angebot-de.docx/versions/99/file')).statusCode).toBe(404);
    expect((await get('/backend/templates/angebot-de.docx/versions/x/comparison')).statusCode).toBe(404);
    expect((await upload('fremd.docx', offer)).statusCode).toBe(404);
    expect((await publish('angebot-de.docx', 1, 3, legal, '')).statusCode).toBe(400);
  });

  it('is for legal staff and administrators only', async () => {
    const ops = await t.signIn('ops@demo.local');
    expect((await get('/backend/templates', ops)).statusCode).toBe(200);
    for (const email of ['berater@demo.local', 'leitung@demo.local', 'neu@demo.local']) {
      const token = await t.signIn(email);
      expect((await get('/backend/templates', token)).statusCode).toBe(403);
      expect((await get('/backend/templates/angebot-de.docx/versions/1/file', token)).statusCode).toBe(403);
      expect((await upload('angebot-de.docx', changed, 'x', token)).statusCode).toBe(403);
      expect((await publish('angebot-de.docx', 2, 1, token)).statusCode).toBe(403);
    }
    expect((await get('/backend/templates', null)).statusCode).toBe(401);
    expect((await upload('angebot-de.docx', changed, 'x', null)).statusCode).toBe(401);
  });
});
