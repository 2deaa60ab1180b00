import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CatalogueEntry,
  type ClauseContent,
  type ClauseDetail,
  catalogueEntry,
  DOCX_MIME_TYPE,
  type DocumentApproval,
  type MatchRecord,
  type TemplateTrial,
  type TemplateVersion,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { loadCompanyData } from '../templates/companies.js';
import { sampleDataList } from '../templates/samples.js';
import { changeApprovalRules } from '../test/approval-rules.js';
import { testDatabases } from '../test/databases.js';
import { changeWord } from '../test/document-edit.js';
import { docxText } from '../test/docx-text.js';
import { editedTemplate } from '../test/template-edit.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir, templatesDir } = loadConfig({}, '0');
const companyData = await loadCompanyData(configDir);
const demo = JSON.parse(readFileSync(join(configDir, 'demo-matches.json'), 'utf8')) as MatchRecord[];
const base = demo[0] as MatchRecord;

/** Three customers: in Switzerland at a high rate, in Austria, in Germany at a low rate. */
const DEALS = {
  swiss: {
    ...base,
    matchId: 'PL-90001',
    kunde: 'Alpen Industrie AG',
    adresseKunde: 'Bahnhofstrasse 1, 8001 Zürich, Schweiz',
    einsatzort: 'Zürich, 40 % remote',
    vk: '135,00',
  },
  austrian: {
    ...base,
    matchId: 'PL-90002',
    kunde: 'Donau Technik GmbH',
    adresseKunde: 'Ringstraße 3\n1010 Wien\nÖsterreich',
    einsatzort: 'Wien',
    vk: '95,00',
  },
  german: {
    ...base,
    matchId: 'PL-90003',
    kunde: 'Elbe Werke GmbH',
    adresseKunde: 'Kaiwiese 12, 20457 Hamburg',
    einsatzort: 'Remote',
    vk: '95,00',
  },
} satisfies Record<string, MatchRecord>;

const LIABILITY: ClauseContent = {
  option: 'always',
  variants: [
    {
      name: 'Schweiz',
      rule: 'land = CH',
      de: 'Die Haftung gegenüber {partnerName} richtet sich nach dem **Schweizer Obligationenrecht**.',
      en: 'Liability towards {partnerName} is governed by the **Swiss Code of Obligations**.',
    },
    {
      name: 'Hoher Satz',
      rule: 'satz >= 120',
      de: 'Die Haftung ist je Schadensfall auf 500.000 € begrenzt.',
      en: 'Liability is limited to EUR 500,000 per claim.',
    },
    {
      name: 'Standard',
      rule: null,
      de: 'Die Haftung ist je Schadensfall auf 250.000 € begrenzt.',
      en: 'Liability is limited to EUR 250,000 per claim.',
    },
  ],
};
const SWISS_LAW: ClauseContent = {
  option: 'always',
  variants: [
    {
      name: 'Schweiz und Liechtenstein',
      rule: 'land in [CH, LI] und partner = kunde',
      de: 'Es gilt Schweizer Recht. Gerichtsstand ist Zürich.',
      en: 'This contract is governed by Swiss law. Place of jurisdiction is Zurich.',
    },
  ],
};

const REMOTE_WORK: ClauseContent = {
  option: 'optional-off',
  variants: [
    {
      name: 'Remote',
      rule: 'remoteAnteil >= 20',
      de: 'Die Leistungen werden zu einem Anteil außerhalb der Räume von {partnerName} erbracht.',
      en: 'The services are partly rendered outside the premises of {partnerName}.',
    },
  ],
};

const tagParagraph = (key: string) =>
  `<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:t>{@klausel:${key}}</w:t></w:r></w:p>`;
const placedBefore = (file: string, anchor: string) =>
  editedTemplate(readFileSync(join(templatesDir, file)), [
    [
      anchor,
      tagParagraph('haftung') + tagParagraph('schweizer-recht') + tagParagraph('remote-arbeit') + anchor,
    ],
  ]);
const DE_ANCHOR =
  '<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:t xml:space="preserve">Die Parteien haften unbeschränkt';
const EN_ANCHOR =
  '<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:t xml:space="preserve">The Parties are liable without limitation';

describe.each(testDatabases())('clauses in generated documents on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  /** The Austrian deal's contract, made in one test and signed in a later one. */
  let austrianDocument = '';

  beforeAll(async () => {
    db = await database.open();
    const store = new MatchStore(db);
    await seedDemoMatches(join(configDir, 'demo-matches.json'), store);
    await store.upsertMany(Object.values(DEALS));
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(legal), ...(payload ? { payload } : {}) });
  const uploadTemplate = async (name: string, content: Buffer) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/templates/${name}/versions?comment=Klauseln`,
      headers: { ...bearer(legal), 'content-type': DOCX_MIME_TYPE },
      payload: content,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as TemplateVersion;
  };
  const publishTemplate = (name: string, version: number, replaces: number) =>
    call('POST', `/backend/templates/${name}/versions/${version}/publish`, { comment: 'Klauseln', replaces });
  const createClause = async (key: string, name: string, content: ClauseContent) => {
    const created = await call('POST', '/backend/clauses', {
      key,
      name,
      needsApproval: true,
      content,
      comment: 'Neu',
    });
    expect(created.statusCode, created.body).toBe(201);
    const published = await call('POST', `/backend/clauses/${key}/versions/1/publish`, {
      comment: 'Geprüft',
      replaces: null,
    });
    expect(published.statusCode, published.body).toBe(200);
  };
  const generate = async (key: string, deal: MatchRecord, klauseln?: Record<string, boolean>) => {
    const entry = catalogueEntry(key) as CatalogueEntry;
    const match = (await call('GET', `/backend/matches/${deal.matchId}`)).json();
    const response = await call('POST', `/backend/generateDocx/${key}/${deal.matchId}`, {
      dataList: {
        ...sampleDataList(entry, match, companyData.signatories),
        ...(klauseln ? { klauseln } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const id = response.headers['x-document-id'] as string;
    return { text: docxText(response.rawPayload), id };
  };

  it('refuses a template that places a clause the library does not have', async () => {
    const version = await uploadTemplate(
      'rahmenvertrag-de.docx',
      placedBefore('rahmenvertrag-de.docx', DE_ANCHOR),
    );
    expect(version.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tag: '{@klausel:haftung}',
          message: expect.stringMatching(/„haftung“ gibt es in der Klauselbibliothek nicht/),
        }),
      ]),
    );
    expect((await publishTemplate('rahmenvertrag-de.docx', version.version, 1)).statusCode).toBe(409);
  });

  it('gives each deal the variant its rules choose, in both languages, and records it with the document', async () => {
    await createClause('haftung', 'Haftung', LIABILITY);
    await createClause('schweizer-recht', 'Schweizer Recht', SWISS_LAW);
    await createClause('remote-arbeit', 'Remote-Arbeit', REMOTE_WORK);
    for (const [file, anchor] of [
      ['rahmenvertrag-de.docx', DE_ANCHOR],
      ['rahmenvertrag-en.docx', EN_ANCHOR],
    ] as const) {
      const version = await uploadTemplate(file, placedBefore(file, anchor));
      expect(version.problems).toEqual([]);
      const published = await publishTemplate(file, version.version, 1);
      expect(published.statusCode, published.body).toBe(200);
    }

    const swiss = await generate('docx-de-wm-rv', DEALS.swiss);
    expect(swiss.text).toContain(
      'Die Haftung gegenüber Alpen Industrie AG richtet sich nach dem Schweizer Obligationenrecht.',
    );
    expect(swiss.text).toContain('Es gilt Schweizer Recht. Gerichtsstand ist Zürich.');
    expect(swiss.text).not.toContain('klausel');
    const swissEnglish = await generate('docx-en-wm-rv', DEALS.swiss);
    expect(swissEnglish.text).toContain(
      'Liability towards Alpen Industrie AG is governed by the Swiss Code of Obligations.',
    );
    expect(swissEnglish.text).toContain('This contract is governed by Swiss law.');

    const austrian = await generate('docx-de-wm-rv', DEALS.austrian);
    austrianDocument = austrian.id;
    expect(austrian.text).toContain('Die Haftung ist je Schadensfall auf 250.000 € begrenzt.');
    expect(austrian.text).not.toContain('Schweizer Recht');
    const german = await generate('docx-en-wm-rv', DEALS.german);
    expect(german.text).toContain('Liability is limited to EUR 250,000 per claim.');
    expect(german.text).not.toContain('Swiss');

    const recorded = await db
      .selectFrom('documents')
      .select(['id', 'clauses'])
      .where('id', 'in', [swiss.id, austrian.id])
      .execute();
    expect(Object.fromEntries(recorded.map((row) => [row.id, row.clauses]))).toEqual({
      [swiss.id]: [
        { key: 'haftung', version: 1, variant: 'Schweiz', rule: 'land = CH' },
        {
          key: 'schweizer-recht',
          version: 1,
          variant: 'Schweiz und Liechtenstein',
          rule: 'land in [CH, LI] und partner = kunde',
        },
      ],
      [austrian.id]: [{ key: 'haftung', version: 1, variant: 'Standard', rule: null }],
    });
  });

  it('offers the optional clauses a deal can get in the form, left out unless ticked', async () => {
    const offered = async (deal: MatchRecord) =>
      (await call('POST', `/backend/documentCheck/docx-de-wm-rv/${deal.matchId}`)).json().optionalClauses;
    expect(await offered(DEALS.swiss)).toEqual([
      { key: 'remote-arbeit', name: 'Remote-Arbeit', checked: false, variant: 'Remote' },
    ]);
    // No remote share in Vienna: nothing to offer.
    expect(await offered(DEALS.austrian)).toEqual([]);
    const REMOTE_TEXT =
      'Die Leistungen werden zu einem Anteil außerhalb der Räume von Elbe Werke GmbH erbracht.';
    expect((await generate('docx-de-wm-rv', DEALS.german)).text).not.toContain(REMOTE_TEXT);
    const ticked = await generate('docx-de-wm-rv', DEALS.german, { 'remote-arbeit': true });
    expect(ticked.text).toContain(REMOTE_TEXT);
    const recorded = await db
      .selectFrom('documents')
      .select('clauses')
      .where('id', '=', ticked.id)
      .executeTakeFirst();
    expect(recorded?.clauses).toContainEqual({
      key: 'remote-arbeit',
      version: 1,
      variant: 'Remote',
      rule: 'remoteAnteil >= 20',
    });
    // Ticked for a deal the rules give no variant: still left out.
    expect((await generate('docx-de-wm-rv', DEALS.austrian, { 'remote-arbeit': true })).text).not.toContain(
      'außerhalb der Räume',
    );
    const refused = await call('POST', `/backend/generateDocx/docx-de-wm-rv/${DEALS.german.matchId}`, {
      dataList: { vertragspartner_type: 'k', klauseln: { 'remote-arbeit': 'ja' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields['klauseln.remote-arbeit']).toEqual([
      'Eine Klausel ist gewählt oder nicht (ja/nein).',
    ]);
  });

  it('shows in the template trial which clause each document of a deal gets and which rule chose it', async () => {
    const detail = (await call('GET', '/backend/templates/rahmenvertrag-de.docx')).json();
    const trial = (
      await call(
        'GET',
        `/backend/templates/rahmenvertrag-de.docx/versions/${detail.publishedVersion}/trial?matchId=${DEALS.swiss.matchId}`,
      )
    ).json() as TemplateTrial;
    const byKey = Object.fromEntries(trial.documents.map((document) => [document.key, document.clauses]));
    expect(byKey['docx-de-wm-rv']?.slice(0, 2)).toEqual([
      expect.objectContaining({
        key: 'haftung',
        reason: 'Regel „land = CH“ trifft zu',
        chosen: expect.objectContaining({ variant: 'Schweiz' }),
      }),
      expect.objectContaining({
        key: 'schweizer-recht',
        chosen: expect.objectContaining({ variant: 'Schweiz und Liechtenstein' }),
      }),
    ]);
    // A project partner's contract: the Swiss law clause is for customers only, the rate is the purchase rate.
    expect(byKey['de-wm-pp-rv']?.slice(0, 2)).toEqual([
      expect.objectContaining({ key: 'haftung', chosen: expect.objectContaining({ variant: 'Schweiz' }) }),
      expect.objectContaining({ key: 'schweizer-recht', chosen: null, reason: 'Keine Regel trifft zu' }),
    ]);
  });

  it('lists the templates placing a clause, and tries a new version on a deal in every document placing it', async () => {
    const detail = (await call('GET', '/backend/clauses/haftung')).json() as ClauseDetail;
    expect(detail.templates).toEqual(['rahmenvertrag-de.docx', 'rahmenvertrag-en.docx']);
    expect(detail.usedInTemplates.map((use) => use.name)).toEqual([
      'rahmenvertrag-de.docx',
      'rahmenvertrag-en.docx',
    ]);
    const draft = await call('POST', '/backend/clauses/haftung/versions', {
      comment: 'Höhere Grenze',
      content: {
        ...LIABILITY,
        variants: LIABILITY.variants.map((v) =>
          v.name === 'Standard' ? { ...v, de: 'Die Haftung von {firmaName} ist auf 300.000 € begrenzt.' } : v,
        ),
      },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const trial = await call('POST', '/backend/clauses/haftung/versions/2/trial', {
      matchId: DEALS.german.matchId,
    });
    expect(trial.statusCode, trial.body).toBe(200);
    const german = trial
      .json()
      .documents.find((document: { key: string }) => document.key === 'docx-de-wm-rv');
    expect(german).toMatchObject({
      language: 'de',
      choice: { chosen: { variant: 'Standard', version: 2 }, reason: 'Gilt immer' },
      paragraphs: ['Die Haftung von WM Consulting GmbH ist auf 300.000 € begrenzt.'],
    });
  });

  it('names on a running contract the clause versions it holds, and lists it where an older one is used', async () => {
    const signed = await t.app.inject({
      method: 'POST',
      url: `/backend/documents/${austrianDocument}/signed-elsewhere?signedOn=2026-12-01&signedBy=Frau%20Donau`,
      headers: { ...bearer(legal), 'content-type': 'application/pdf' },
      payload: Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const { contractId } = signed.json();
    const record = async () => (await call('GET', `/backend/contracts/${contractId}`)).json();
    expect((await record()).clauses).toEqual([
      { key: 'haftung', name: 'Haftung', version: 1, variant: 'Standard', outdated: false },
    ]);

    // Version 2 (the draft of the test before) published: the contract holds an older one now.
    const published = await call('POST', '/backend/clauses/haftung/versions/2/publish', {
      comment: 'Höhere Grenze',
      replaces: 1,
    });
    expect(published.statusCode, published.body).toBe(200);
    expect((await record()).clauses).toEqual([
      { key: 'haftung', name: 'Haftung', version: 1, variant: 'Standard', outdated: true },
    ]);
    const detail = (await call('GET', '/backend/clauses/haftung')).json() as ClauseDetail;
    expect(detail.contracts).toEqual([
      expect.objectContaining({
        contractId,
        matchId: DEALS.austrian.matchId,
        version: 1,
        variant: 'Standard',
        outdated: true,
      }),
    ]);
  });

  it('asks for Freigabe when an edit changes the text of a clause that needs it, naming the clause', async () => {
    await changeApprovalRules(t, legal, { editedText: false, markedParagraphs: true });
    const approval = async (id: string) =>
      (await call('GET', `/backend/documents/${id}/approval`)).json() as DocumentApproval;

    const swiss = await generate('docx-de-wm-rv', DEALS.swiss);
    // Another paragraph: no reason. The clause's paragraph: the clause's name is the reason.
    await changeWord(
      t.app,
      legal,
      swiss.id,
      'Die Parteien haften unbeschränkt bei Vorsatz und grober Fahrlässigkeit, für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit, nach dem Produkthaftungsgesetz sowie im Umfang einer übernommenen Garantie.',
    );
    expect(await approval(swiss.id)).toMatchObject({ version: 2, required: false, reasons: [] });
    await changeWord(t.app, legal, swiss.id, 'Es gilt Schweizer Recht. Gerichtsstand ist Zürich.');
    expect(await approval(swiss.id)).toMatchObject({
      version: 3,
      required: true,
      reasons: [{ kind: 'marked_paragraph', label: 'Schweizer Recht' }],
    });

    // Without the flag, the same edit is free.
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/backend/clauses/schweizer-recht',
      headers: bearer(legal),
      payload: { name: 'Schweizer Recht', needsApproval: false },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(await approval(swiss.id)).toMatchObject({ required: false, reasons: [] });
  });
});
