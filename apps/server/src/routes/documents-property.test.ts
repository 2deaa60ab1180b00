import {
  CATALOGUE,
  type CatalogueEntry,
  catalogueEntry,
  DOCX_MIME_TYPE,
  MATCH_NUMERIC_FIELDS,
  MATCH_TEXT_FIELDS,
  type MatchRecord,
  resolveMatch,
} from '@vertragsgenerator/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { MatchSource } from '../matches/match-source.js';
import { type CompanyData, loadCompanyData } from '../templates/companies.js';
import { sampleDataList } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { docxParts, docxText } from '../test/docx-text.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const companyData: CompanyData = await loadCompanyData(loadConfig({}, '0').configDir);

/** The match source of these tests: whatever match a test puts there. */
class OneMatch implements MatchSource {
  current: MatchRecord | undefined;
  async find(matchId: string) {
    return this.current?.matchId === matchId ? resolveMatch(this.current) : undefined;
  }
  async findMany(matchIds: readonly string[]) {
    return new Map(await Promise.all(matchIds.map(async (id) => [id, await this.find(id)] as const)));
  }
}

const entry = (key: string): CatalogueEntry => {
  const found = catalogueEntry(key);
  if (!found) throw new Error(key);
  return found;
};

const TRICKY = {
  kunde: `Müller & Söhne <Süd> "Öl" 'Ärger' GmbH`,
  ppGesellschaft: 'Jäger & Partner <IT> "Beratung"',
  candidateFirstName: 'Zoë',
  candidateLastName: "O'Brien-Weiß",
  aufgabenbeschreibung: `Prüfen, ob a < b && c > d\n„Zitat“ & "Zitat" & 'Apostroph'`,
  position: 'Entwickler <Backend> & "DevOps"',
};

describe.each(testDatabases())('document generation with unusual matches on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let token: string;
  const matches = new OneMatch();

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { matches, companyData });
    await t.users.upsert({ email: 'legal@demo.local', name: 'Lena Legal', permission: 2 });
    token = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const generate = (key: string, matchId: string, dataList: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${encodeURIComponent(key)}/${encodeURIComponent(matchId)}`,
      headers: bearer(token),
      payload: { dataList },
    });

  describe('XML special characters and umlauts', () => {
    const match: MatchRecord = {
      matchId: 'PL-30001',
      ...TRICKY,
      startdatum: '01.03.2027',
      vk: '1.234,5',
      ek: 1050.25,
    };

    it.each([
      ['docx-de-wm-rv', [TRICKY.kunde, TRICKY.aufgabenbeschreibung, TRICKY.position, '1.234,50 €']],
      [
        'de-we-pp-ev',
        [TRICKY.ppGesellschaft, `${TRICKY.candidateFirstName} ${TRICKY.candidateLastName}`, '1.050,25 €'],
      ],
      ['kuendigung-wm-pp-termination-gerecht', [TRICKY.ppGesellschaft, 'Architekt <Cloud> & "Daten"']],
    ])('%s shows the text exactly as given, in well-formed XML', async (key, expected) => {
      matches.current = match;
      const dataList = {
        ...sampleDataList(entry(key), resolveMatch(match), companyData.signatories),
        ...(key.startsWith('kuendigung') ? { position: 'Architekt <Cloud> & "Daten"' } : {}),
      };
      const response = await generate(key, match.matchId, dataList);
      expect(response.statusCode, response.body).toBe(200);
      for (const part of docxParts(response.rawPayload)) docxText(response.rawPayload, part);
      const text = docxText(response.rawPayload);
      for (const value of expected) expect(text).toContain(value);
    });

    it('names the file in UTF-8 with an ASCII fallback (RFC 6266)', async () => {
      matches.current = match;
      const response = await generate('docx-de-wm-rv', match.matchId, { vertragspartner_type: 'k' });
      const header = String(response.headers['content-disposition']);
      expect(header).toMatch(
        /^attachment; filename="PL-30001 Rahmenvertrag Kunde Mueller & Soehne Sued Oel /,
      );
      const encoded = header.match(/filename\*=UTF-8''(.+)$/)?.[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe(
        `PL-30001 Rahmenvertrag Kunde Müller & Söhne Süd Öl 'Ärger' GmbH.docx`,
      );
    });
  });

  it('answers arbitrary match records and dataLists with a document or a 4xx, never a 5xx', async () => {
    const keys = [...CATALOGUE.keys()];
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('', ' ', '2027-01-04', '31.12.2026', '2027-02-30', '30 days', '1.234,50 €', 'null'),
    );
    const anyNumber = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), anyText);
    const matchRecord = fc.record(
      Object.fromEntries([
        ...MATCH_TEXT_FIELDS.map((field) => [field, anyText]),
        ...MATCH_NUMERIC_FIELDS.map((field) => [field, anyNumber]),
      ]) as Record<string, fc.Arbitrary<string | number>>,
      { requiredKeys: [] },
    );
    const dataListFields = [
      'vertragspartner_type',
      'selectedPerson',
      'position',
      'projectHours',
      'projectDays',
      'Absender_UserName',
      'Absender_Email',
      'Kunde_UserName',
      'Kunde2_Email',
      'Projektpartner_UserName',
      'CC_Email',
    ];
    const anyValue = fc.oneof(
      anyText,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('k', 'pp', 'client'),
    );
    const overrides = fc.dictionary(fc.constantFrom(...dataListFields), anyValue, { maxKeys: 3 });

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...keys, 'de-wp-k-rv-1'),
        matchRecord,
        // Mostly valid dataLists, so that most runs reach the renderer with an arbitrary match.
        fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
        fc.constantFrom('sample', 'sample', 'sample', 'empty', 'anything'),
        overrides,
        fc.anything(),
        fc.constantFrom('PL-40001', 'PL-40001', 'PL-40001', 'PL-49999'),
        async (key, fields, withOverrides, base, changes, anything, requested) => {
          const record = { ...fields, matchId: 'PL-40001' } as MatchRecord;
          matches.current = record;
          const known = catalogueEntry(key);
          const start =
            base === 'sample' && known
              ? sampleDataList(known, resolveMatch(record), companyData.signatories)
              : base === 'anything'
                ? anything
                : {};
          const dataList = withOverrides && typeof start === 'object' ? { ...start, ...changes } : start;
          const response = await generate(key, requested, dataList);
          if (response.statusCode === 200) {
            expect(response.headers['content-type']).toBe(DOCX_MIME_TYPE);
            for (const part of docxParts(response.rawPayload)) docxText(response.rawPayload, part);
          } else {
            expect([400, 404], response.body).toContain(response.statusCode);
            expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
