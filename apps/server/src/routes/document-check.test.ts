import { join } from 'node:path';
import {
  CATALOGUE,
  catalogueEntry,
  documentCheckSchema,
  type MatchRecord,
  matchFieldSource,
  type ResolvedMatch,
  TEMPLATE_FIELDS,
  type TemplateFieldName,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { UNKNOWN_MATCH_MESSAGE } from '../matches/match-lookup.js';
import { MatchStore } from '../matches/match-store.js';
import { loadCompanyData, templateDataFor } from '../templates/companies.js';
import { richestDemoMatch, sampleTemplateData } from '../templates/samples.js';
import { TemplateVersions } from '../templates/template-versions.js';
import { templateFile } from '../test/catalogue-samples.js';
import { testDatabases } from '../test/databases.js';
import { docxFixture, paragraph, templatesFolder } from '../test/docx-fixture.js';
import { docxText } from '../test/docx-text.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const complete: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const companyData = await loadCompanyData(configDir);

/** The demo match without place of work and rates, and with a start date no calendar has. */
const { einsatzort: _place, vk: _vk, ek: _ek, ...rest } = complete;
const incomplete: MatchRecord = { ...rest, matchId: 'PL-20001', startdatum: '31.02.2027' };

const STARTDATUM = { field: 'startdatum', label: 'Startdatum' };
const EINSATZORT = { field: 'einsatzort', label: 'Einsatzort' };
const VK = { field: 'vk', label: 'VK Remote' };
const EK = { field: 'ek', label: 'EK Remote' };

describe.each(testDatabases())('documentCheck on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([complete, incomplete]);
    t = await createTestApp(db, { companyData, demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const check = (key: string, matchId: string, token: string | null = legal, app = t.app) =>
    app.inject({
      method: 'POST',
      url: `/backend/documentCheck/${key}/${matchId}`,
      headers: token ? bearer(token) : {},
    });

  it.each([...CATALOGUE.keys()])('%s: reports nothing for the complete demo match', async (key) => {
    const response = await check(key, complete.matchId);
    expect(response.statusCode, response.body).toBe(200);
    expect(documentCheckSchema.parse(response.json())).toEqual({ missing: [], optionalClauses: [] });
  });

  it.each([
    ['docx-de-wm-rv', [STARTDATUM, VK, EINSATZORT]],
    ['de-we-k-ev-2', [STARTDATUM, VK, EINSATZORT]],
    ['en-wm-k-rv-1', [STARTDATUM, VK, EINSATZORT]],
    ['angebot-wm', [STARTDATUM, VK, EINSATZORT]],
    ['de-wm-pp-rv', [STARTDATUM, EK, EINSATZORT]],
    ['de-wp-pp-ev', [STARTDATUM, EK, EINSATZORT]],
    // Neither shows a place of work or a rate, and the agreement prints the start date.
    ['kuendigung-we-k-termination-gerecht', []],
    ['zusatz-wm-pp-hours', [STARTDATUM]],
  ])('%s: reports what the template shows and the match lacks, with German labels', async (key, missing) => {
    const response = await check(key, 'pl-20001');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ missing, optionalClauses: [] });
  });

  it('leaves out what a section hides for the key or the match', async () => {
    const { kuendigungsfristKunde: _notice, vk2: _onsite, ...withoutNotice } = complete;
    await new MatchStore(db).upsertMany([{ ...withoutNotice, matchId: 'PL-20002' }]);
    const notice = { field: 'kuendigungsfristKunde', label: 'Kündigungsfrist' };
    // An immediate termination names no notice period; without an onsite rate its paragraph is gone.
    expect((await check('kuendigung-wm-pp-termination-los', 'PL-20002')).json()).toEqual({
      missing: [],
      optionalClauses: [],
    });
    expect((await check('kuendigung-wm-pp-termination-gerecht', 'PL-20002')).json()).toEqual({
      missing: [notice],
      optionalClauses: [],
    });
    expect((await check('de-wm-k-ev-1', 'PL-20002')).json()).toEqual({
      missing: [notice],
      optionalClauses: [],
    });
  });

  it('reads the published version of the template, and the next one once it is published', async () => {
    const template = (...body: string[]) => docxFixture({ body: body.map((text) => paragraph(text)) });
    // A database of its own, so that its templates come from this folder, where the offer is missing.
    const own = await database.open();
    await new MatchStore(own).upsertMany([complete, incomplete]);
    const dir = templatesFolder({
      'rahmenvertrag-de.docx': template(
        '{partnerName}: ab {startdatum}',
        '{#mitProjektpartner}Stundensatz {stundensatzRemote}{/mitProjektpartner}',
      ),
    });
    const fixture = await createTestApp(own, { env: { TEMPLATES_DIR: dir }, companyData, demoStaff: true });
    try {
      const token = await fixture.signIn('legal@demo.local');
      expect((await check('docx-de-wm-rv', 'PL-20001', token, fixture.app)).json()).toEqual({
        missing: [STARTDATUM],
        optionalClauses: [],
      });
      expect((await check('de-wm-pp-rv', 'PL-20001', token, fixture.app)).json()).toEqual({
        missing: [STARTDATUM, EK],
        optionalClauses: [],
      });

      const templates = new TemplateVersions(own, new AuditLog(own));
      const next = template('{partnerName}: ab {startdatum} in {einsatzort}');
      await templates.add('rahmenvertrag-de.docx', {
        content: next,
        comment: '',
        createdBy: 'legal@demo.local',
        problems: [],
      });
      await templates.publish('rahmenvertrag-de.docx', 2, {
        actor: 'legal@demo.local',
        comment: 'Ort',
        replaces: 1,
      });
      expect((await check('de-wm-pp-rv', 'PL-20001', token, fixture.app)).json()).toEqual({
        missing: [STARTDATUM, EINSATZORT],
        optionalClauses: [],
      });

      const missingTemplate = await check('angebot-wm', 'PL-20001', token, fixture.app);
      expect(missingTemplate.statusCode).toBe(500);
      expect(missingTemplate.json()).toEqual({
        error: 'render_failed',
        message: expect.stringContaining(
          'angebot-de.docx: Von dieser Vorlage ist keine Version veröffentlicht',
        ),
      });
    } finally {
      await fixture.app.close();
      await own.destroy();
    }
  });

  it('answers an unknown key with 404, before looking at the match', async () => {
    const response = await check('de-wp-k-rv-1', 'PL-99999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'Für diese Auswahl gibt es kein Dokument (de-wp-k-rv-1).',
    });
  });

  it('answers an unknown match with 404 and the alert the browser shows, a malformed ID with 400', async () => {
    const unknown = await check('docx-de-wm-rv', 'PL-99999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: UNKNOWN_MATCH_MESSAGE });
    const malformed = await check('docx-de-wm-rv', 'PL-1%3B2');
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json().fields)).toEqual(['matchId']);
  });

  it('answers a key the user may not generate with 403, and one they may with 200', async () => {
    const berater = await t.signIn('berater@demo.local');
    const forbidden = await check('docx-de-wm-rv', complete.matchId, berater);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      error: 'forbidden',
      message: 'Dieses Dokument darfst du mit deiner Berechtigung nicht erstellen.',
    });
    expect((await check('de-wm-pp-rv', complete.matchId, berater)).statusCode).toBe(200);
  });

  it('refuses a user without permission with 403 and a missing token with 401', async () => {
    const neu = await t.signIn('neu@demo.local');
    expect((await check('de-wm-pp-rv', complete.matchId, neu)).statusCode).toBe(403);
    expect((await check('de-wm-pp-rv', complete.matchId, null)).statusCode).toBe(401);
  });
});

describe('the sections a documentCheck evaluates', () => {
  /**
   * An extension's sections of new rates and hours follow its form by design. They hold only the form's
   * own values, never a match's, so the check's list of missing match values is the same either way:
   * the test below reads both templates to hold them to that.
   */
  const FORM_SECTIONS = ['mitNeuemSatzRemote', 'mitNeuemSatzOnsite', 'mitNeuenStunden'];
  // The check builds the data with the partner type alone; that holds only while no other section
  // depends on anything else a form sends.
  const sections = Object.entries(TEMPLATE_FIELDS)
    .filter(([name, field]) => field.kind !== 'text' && !FORM_SECTIONS.includes(name))
    .map(([name]) => name);

  it.each(['verlaengerung-de.docx', 'verlaengerung-en.docx'])(
    '%s: the sections that follow the form show none of the match’s values',
    (template) => {
      const text = docxText(templateFile(template));
      const entry = [...CATALOGUE.values()].find((candidate) => candidate.template === template);
      if (!entry) throw new Error(template);
      for (const section of FORM_SECTIONS) {
        const parts = [
          ...text.matchAll(new RegExp(`\\{[#^]${section}\\}([\\s\\S]*?)\\{/${section}\\}`, 'g')),
        ];
        expect(parts.length, `${template}: {#${section}}`).toBeGreaterThan(0);
        for (const [, inside = ''] of parts) {
          const placeholders = [...inside.matchAll(/\{([A-Za-z]+)\}/g)].map(
            ([, name]) => name as TemplateFieldName,
          );
          expect(
            placeholders.filter((name) => matchFieldSource(name, entry) !== undefined),
            `${template}: {#${section}}`,
          ).toEqual([]);
        }
      }
    },
  );

  it.each([...CATALOGUE.keys()])('%s: do not depend on the form’s dataList', (key) => {
    const entry = catalogueEntry(key);
    if (!entry) throw new Error(key);
    const today = new Date(2026, 10, 21);
    const withForm = sampleTemplateData(entry, complete, companyData, today);
    const partnerOnly = templateDataFor(
      entry,
      complete,
      { vertragspartner_type: entry.params.partner },
      companyData,
      today,
    );
    const decisive = (data: typeof withForm) =>
      sections.map((name) => {
        const value = data[name as keyof typeof data];
        return Array.isArray(value) ? value.length : value;
      });
    expect(decisive(partnerOnly)).toEqual(decisive(withForm));
  });
});
