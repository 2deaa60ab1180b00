import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgreementDataList,
  CATALOGUE,
  type CalendarDate,
  type CatalogueEntry,
  catalogueEntry,
  type DataList,
  DOCX_MIME_TYPE,
  formatCalendarDate,
  formatGermanNumber,
  formatPaymentTerm,
  formatPrice,
  parseDate,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { UNKNOWN_MATCH_MESSAGE } from '../matches/match-lookup.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { type CompanyData, loadCompanyData } from '../templates/companies.js';
import { type Renderer, RendererUnavailableError } from '../templates/renderer.js';
import { richestDemoMatch, sampleDataList } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { docxFixture, paragraph, templatesFolder } from '../test/docx-fixture.js';
import { docxText } from '../test/docx-text.js';
import { bearer, createTestApp, foreignKey, issueToken, type TestApp } from '../test/test-app.js';

const { configDir, templatesDir: repositoryTemplates } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const companyData: CompanyData = await loadCompanyData(configDir);

// A copy of the repository's templates that tests may break and repair.
const templatesDir = templatesFolder({});
for (const file of readdirSync(repositoryTemplates)) {
  if (file.endsWith('.docx')) copyFileSync(join(repositoryTemplates, file), join(templatesDir, file));
}

const entry = (key: string): CatalogueEntry => {
  const found = catalogueEntry(key);
  if (!found) throw new Error(key);
  return found;
};
const sample = (key: string): DataList => sampleDataList(entry(key), match, companyData.signatories);

/** Signature blocks a key needs: ours plus the other party's; letters have none. */
function expectedSignatureBlocks({ params }: CatalogueEntry): number {
  if (params.family === 'contract') return params.partner === 'k' ? 1 + params.customerSigners : 2;
  return params.family === 'agreement' ? 2 : 0;
}

const partnerPerson = [match.candidateFirstName, match.candidateLastName].join(' ');

describe.each(testDatabases())('document generation on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { env: { TEMPLATES_DIR: templatesDir }, demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const generate = (
    key: string,
    dataList: unknown,
    token: string | null = legal,
    { matchId = match.matchId, path = 'generateDocx', app = t.app } = {},
  ) =>
    app.inject({
      method: 'POST',
      url: `/backend/${path}/${key}/${matchId}`,
      headers: token ? bearer(token) : {},
      payload: { dataList },
    });

  describe.each([...CATALOGUE.keys()])('%s', (key) => {
    it('renders every value of the demo match, formatted, with the signature blocks the key needs', async () => {
      const response = await generate(key, sample(key));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe(DOCX_MIME_TYPE);
      const text = docxText(response.rawPayload);
      const { params } = entry(key);

      expect(text).not.toMatch(/[{}]/);
      expect(text).not.toMatch(/\bundefined\b|\bnull\b/);
      expect(text).toContain(companyData.companies[params.company].name);
      expect(text).toContain(params.partner === 'k' ? match.kunde : (match.ppGesellschaft ?? partnerPerson));
      if (params.family !== 'termination') {
        const start = parseDate(match.startdatum);
        expect(start).toBeDefined();
        if (start) expect(text).toContain(formatCalendarDate(start));
      }
      if (params.family === 'contract') {
        expect(text).toContain(formatPrice(params.partner === 'k' ? match.vk : match.ek));
      }
      if (params.family === 'offer') expect(text).toContain(formatPrice(match.vk));
      if (params.family === 'agreement') {
        if (params.agreement === 'extension') {
          const { neuesEnde, neuerSatzRemote } = sample(key) as AgreementDataList;
          expect(text).toContain(formatCalendarDate(parseDate(neuesEnde) as CalendarDate));
          expect(text).toContain(formatPrice(neuerSatzRemote));
        } else {
          const changed = {
            descr: match.aufgabenbeschreibung,
            hours: formatGermanNumber(Number(match.stundenProWoche)),
            misc: match.addAgreements,
          }[params.agreement];
          expect(text).toContain(changed);
        }
      }
      if (params.family === 'termination') expect(text).toContain(match.position);
      // An immediate termination has no notice period to name.
      if (params.family === 'termination' && params.deadline === 'gerecht') {
        expect(text).toContain(formatPaymentTerm(match.kuendigungsfristKunde));
      }
      expect(text.match(/\/sig_/g)?.length ?? 0).toBe(expectedSignatureBlocks(entry(key)));
    });
  });

  it('answers the file with a name of match, document and party, and stores it with its history', async () => {
    const response = await generate('docx-de-wm-rv', { vertragspartner_type: 'k' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="PL-10001 Rahmenvertrag Kunde Elbwerk Logistik AG.docx"',
    );
    expect(response.headers['content-type']).toBe(DOCX_MIME_TYPE);
    // A contract names people: no shared cache may keep a copy.
    expect(response.headers['cache-control']).toBe('private, no-store');
    const id = String(response.headers['x-document-id']);
    const document = await db
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(document).toMatchObject({
      match_id: 'PL-10001',
      doc_key: 'docx-de-wm-rv',
      form: 'docx',
      created_by: 'legal@demo.local',
      status: 'ready',
      error: null,
      file_name: 'PL-10001 Rahmenvertrag Kunde Elbwerk Logistik AG.docx',
      data: { vertragspartner_type: 'k' },
      template_sha256: sha256Hex(readFileSync(join(templatesDir, 'rahmenvertrag-de.docx'))),
      template_version: 1,
      data_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const versions = await db
      .selectFrom('document_versions')
      .selectAll()
      .where('document_id', '=', id)
      .execute();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      version: 1,
      sha256: sha256Hex(response.rawPayload),
      size: response.rawPayload.byteLength,
      created_by: 'legal@demo.local',
    });
    expect(Buffer.from(versions[0]?.content ?? []).equals(response.rawPayload)).toBe(true);
  });

  it('names the project partner in the file name, and accepts any key on generateDocxOffer', async () => {
    const response = await generate('de-we-pp-ev', sample('de-we-pp-ev'), legal, {
      path: 'generateDocxOffer',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(
      `filename="PL-10001 Einzelauftrag Projektpartner ${match.ppGesellschaft}.docx"`,
    );
  });

  describe('permission matrix', () => {
    const families = {
      'e-signature k': 'de-wm-k-rv-1',
      'e-signature pp': 'de-wm-pp-rv',
      docx: 'docx-de-wm-rv',
      termination: 'kuendigung-wm-k-termination-gerecht',
      offer: 'angebot-wm',
      agreement: 'zusatz-wm-k-descr',
    };
    const allowed: Record<string, (keyof typeof families)[]> = {
      'berater@demo.local': ['e-signature pp'],
      'legal@demo.local': ['e-signature k', 'e-signature pp', 'docx', 'termination', 'offer', 'agreement'],
      'leitung@demo.local': ['e-signature pp', 'offer'],
      'neu@demo.local': [],
    };
    const cases = Object.keys(allowed).flatMap((email) =>
      Object.entries(families).map(([family, key]) => ({ email, family, key })),
    );

    it.each(cases)('$email × $family', async ({ email, family, key }) => {
      const response = await generate(key, sample(key), await t.signIn(email));
      const expected = allowed[email]?.includes(family as keyof typeof families) ? 200 : 403;
      expect(response.statusCode, response.body).toBe(expected);
      if (expected === 403) expect(response.json().error).toBe('forbidden');
    });

    it.each(['generateDocx', 'generateDocxOffer'])(
      '%s refuses a missing, forged or revoked token',
      async (path) => {
        expect((await generate('angebot-wm', sample('angebot-wm'), null, { path })).statusCode).toBe(401);
        const forged = await issueToken({ email: 'legal@demo.local', key: (await foreignKey).privateKey });
        expect((await generate('angebot-wm', sample('angebot-wm'), forged, { path })).statusCode).toBe(401);
        const revoked = await t.signIn('leitung@demo.local');
        await t.sessions.revokeAll('leitung@demo.local');
        expect((await generate('angebot-wm', sample('angebot-wm'), revoked, { path })).statusCode).toBe(401);
      },
    );
  });

  describe('refusals', () => {
    it('answers an unknown key with 404 naming it', async () => {
      const response = await generate('de-wp-k-rv-1', { vertragspartner_type: 'k' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: 'not_found',
        message: 'Für diese Auswahl gibt es kein Dokument (de-wp-k-rv-1).',
      });
    });

    it('answers an unknown match with 404 and the alert the browser shows, a malformed ID with 400', async () => {
      const unknown = await generate('angebot-wm', sample('angebot-wm'), legal, { matchId: 'PL-99999' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'not_found', message: UNKNOWN_MATCH_MESSAGE });
      const lowercase = await generate('angebot-wm', sample('angebot-wm'), legal, { matchId: 'pl-10001' });
      expect(lowercase.statusCode).toBe(200);
      const malformed = await generate('angebot-wm', sample('angebot-wm'), legal, { matchId: 'PL-1%3B2' });
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json().fields)).toEqual(['matchId']);
    });

    it('answers an invalid dataList with 400 naming every failing field', async () => {
      const response = await generate('de-wm-k-rv-2', {
        vertragspartner_type: 'k',
        Absender_UserName: 'Lena Legal',
        Absender_Email: 'keine-adresse',
        Kunde_UserName: 'Markus Oberländer',
        Kunde_Email: 'markus@elbwerk.example',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_input', message: expect.any(String) });
      expect(Object.keys(response.json().fields).sort()).toEqual(['Absender_Email']);

      const incomplete = await generate('de-wm-k-rv-2', { vertragspartner_type: 'pp' });
      expect(Object.keys(incomplete.json().fields).sort()).toEqual([
        'Absender_Email',
        'Absender_UserName',
        'Kunde2_Email',
        'Kunde2_UserName',
        'Kunde_Email',
        'Kunde_UserName',
        'vertragspartner_type',
      ]);
    });

    it.each([
      ['no body', undefined],
      ['a list', ['vertragspartner_type']],
    ])('answers a dataList that is %s with 400', async (_case, dataList) => {
      const response = await generate('docx-de-wm-rv', dataList);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_input');
    });

    it('answers a NUL character in a name with 400 rather than failing to store it', async () => {
      const response = await generate('de-wm-pp-rv', {
        ...sample('de-wm-pp-rv'),
        Absender_UserName: 'Le\u0000na',
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual(['Absender_UserName']);
    });

    it('answers an unknown signatory with 400 naming selectedPerson', async () => {
      const response = await generate('angebot-we', { ...sample('angebot-we'), selectedPerson: 'niemand' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({
        selectedPerson: [expect.stringMatching(/^Unbekannte Person „niemand“\. Erlaubt: henrik-albers, /)],
      });
    });
  });

  describe('when rendering fails', () => {
    it('keeps the submitted dataList, marks the document failed, and answers 500 render_failed', async () => {
      // A published version that does not render: written past the library's check, as a bug would.
      const broken = docxFixture({ body: [paragraph('{#mitKunde}ohne Ende')] });
      const { published_version: before } = await db
        .selectFrom('templates')
        .select('published_version')
        .where('name', '=', 'angebot-de.docx')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('template_versions')
        .values({
          template: 'angebot-de.docx',
          version: 99,
          content: broken,
          sha256: sha256Hex(broken),
          size: broken.length,
          comment: 'kaputt',
          created_by: 'test',
          problems: '[]',
        })
        .execute();
      const publish = (version: number | null) =>
        db
          .updateTable('templates')
          .set({ published_version: version })
          .where('name', '=', 'angebot-de.docx')
          .execute();
      await publish(99);
      const dataList = sample('angebot-wm');
      try {
        const response = await generate('angebot-wm', dataList);
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          error: 'render_failed',
          message: expect.stringContaining(
            'angebot-de.docx, Haupttext: {#mitKunde} – Der Abschnitt wird nie',
          ),
        });
        const document = await db
          .selectFrom('documents')
          .selectAll()
          .where('doc_key', '=', 'angebot-wm')
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow();
        expect(document).toMatchObject({
          status: 'failed',
          data: dataList,
          error: expect.stringContaining('{#mitKunde}'),
          template_sha256: sha256Hex(broken),
          template_version: 99,
        });
        const versions = await db
          .selectFrom('document_versions')
          .select('version')
          .where('document_id', '=', document.id)
          .execute();
        expect(versions).toEqual([]);
      } finally {
        await publish(before);
      }
      // The version published again renders at once: every document reads the published version.
      expect((await generate('angebot-wm', dataList)).statusCode).toBe(200);
    });

    it('answers 503 when the render pool cannot take the task, and marks the document failed', async () => {
      const busy: Renderer = {
        render: () => Promise.reject(new RendererUnavailableError('Task queue is at limit')),
        pending: () => 0,
        closed: () => false,
        close: async () => {},
      };
      const busyApp = await createTestApp(db, { renderer: busy, companyData });
      try {
        const token = await busyApp.signIn('legal@demo.local');
        const response = await generate('angebot-wm', sample('angebot-wm'), token, { app: busyApp.app });
        expect(response.statusCode).toBe(503);
        expect(response.json().error).toBe('unavailable');
        const id = await db
          .selectFrom('documents')
          .select(['status', 'error'])
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow();
        expect(id).toEqual({ status: 'failed', error: 'Task queue is at limit' });
      } finally {
        await busyApp.app.close();
      }
    });
  });
});
