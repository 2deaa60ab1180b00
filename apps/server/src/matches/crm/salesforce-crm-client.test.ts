import { displayRows, type ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config.js';
import { pgliteTestDatabase } from '../../test/databases.js';
import { SalesforceStub } from '../../test/salesforce-stub.js';
import { bearer, createTestApp } from '../../test/test-app.js';
import { MatchSourceUnavailableError, MatchUnreadableError } from '../match-source.js';
import { CRM_SIGN_IN_REFUSED_MESSAGE, CRM_UNAVAILABLE_MESSAGE, CrmMatchSource } from './crm-match-source.js';
import { loadCrmMapping, parseCrmMapping } from './mapping.js';
import { SalesforceCrmClient, type SalesforceOptions, soqlString } from './salesforce-crm-client.js';

const PRESET = new URL('../../../../../config/crm-mapping.salesforce.json', import.meta.url).pathname;
const API = '/services/data/v62.0';
const SCRAPER_TOKEN = 'scraper-token-of-the-crm-test';

/** A Match__c record as Salesforce answers a SOQL query over the preset's fields. */
const SALESFORCE_MATCH = {
  attributes: { type: 'Match__c', url: `${API}/sobjects/Match__c/a0B5g00000XyZabEAF` },
  Name: 'PL-10001',
  Berater_Job__r: { attributes: { type: 'User' }, Name: 'Anna Albrecht' },
  Berater_Kandidat__r: null,
  Kandidat__r: {
    attributes: { type: 'Contact' },
    FirstName: 'Jana',
    LastName: 'Kowalski',
    Name: 'Jana Kowalski',
  },
  Projektpartner_Gesellschaft__r: null,
  Kunde__r: {
    attributes: { type: 'Account' },
    Name: 'Elbwerk Logistik AG',
    BillingAddress: { street: 'Kaiwiese 12', postalCode: '20457', city: 'Hamburg', country: null },
  },
  Ansprechpartner_Kunde__r: { attributes: { type: 'Contact' }, Name: 'Markus Oberländer' },
  Startdatum__c: '2027-01-04',
  Enddatum__c: '2027-06-30',
  Kuendigungsfrist_Kunde__c: null,
  Kuendigungsfrist__c: '4 Wochen zum Monatsende',
  Zahlungsziel_PP__c: 30,
  Zahlungsziel_Kunde__c: 1,
  Verguetungssatz__c: 92,
  EK_Remote__c: 92,
  VK_Remote__c: 118.5,
  EK_Onsite__c: null,
  VK_Onsite__c: null,
  Stunden_pro_Woche__c: 40,
  Einsatzort__c: 'Hamburg',
  Position__c: 'SAP-Berater',
  Aufgabenbeschreibung__c: 'Migration',
  Zusaetzliche_Vereinbarungen__c: null,
  Anstellungsart__c: 'Freiberufler',
  Vertragspartner_PP__c: 'WM Consulting GmbH',
  Vertragspartner_Kunde__c: 'WM Consulting GmbH',
};

describe('soqlString', () => {
  it.each([
    ['PL-10001', "'PL-10001'"],
    ["O'Brien", "'O\\'Brien'"],
    ['a\\b', "'a\\\\b'"],
    ['x\n"y"', '\'x\\n\\"y\\"\''],
  ])('%j → %s', (value, literal) => {
    expect(soqlString(value)).toBe(literal);
  });
});

describe('Salesforce preset', () => {
  const fake = new SalesforceStub();
  let options: SalesforceOptions;

  beforeAll(async () => {
    await fake.start();
    options = {
      loginUrl: fake.url,
      clientId: 'client-id',
      clientSecret: 'client-secret',
      object: 'Match__c',
      idField: 'Name',
      apiVersion: '62.0',
      timeoutMs: 1_000,
    };
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.queries.length = 0;
    fake.tokenRequests.length = 0;
    fake.failQueries = [];
    fake.tokenStatus = 200;
    fake.stallQueries = 0;
    fake.refuseEveryToken = false;
    fake.queryAttempts = 0;
    fake.records = [SALESFORCE_MATCH];
    fake.pageSize = 2_000;
    fake.pageRequests.length = 0;
  });

  async function source(overrides: Partial<SalesforceOptions> = {}) {
    const mapping = await loadCrmMapping(PRESET);
    return new CrmMatchSource(
      new SalesforceCrmClient({ ...options, ...overrides }, mapping, PRESET),
      mapping,
      {
        retries: 2,
        backoffMs: 10,
      },
    );
  }

  it('signs in with client credentials and finds the match by SOQL on the ID field', async () => {
    const matches = await source();
    await expect(matches.find('PL-10001')).resolves.toEqual({
      matchId: 'PL-10001',
      beraterJob: 'Anna Albrecht',
      candidateFirstName: 'Jana',
      candidateLastName: 'Kowalski',
      ppGesellschaft: 'Jana Kowalski',
      kunde: 'Elbwerk Logistik AG',
      ansprechpartnerKunde: 'Markus Oberländer',
      adresseKunde: 'Kaiwiese 12, 20457 Hamburg',
      startdatum: '2027-01-04',
      enddatum: '2027-06-30',
      kuendigungsfristKunde: '4 Wochen zum Monatsende',
      zahlungszielPP: '30 Tage',
      zahlungszielKunde: '1 Tag',
      verguetungssatz: 92,
      ek: 92,
      vk: 118.5,
      stundenProWoche: 40,
      einsatzort: 'Hamburg',
      position: 'SAP-Berater',
      aufgabenbeschreibung: 'Migration',
      Anstellungsart: 'Freiberufler',
      vertragspartnerPP: 'WM Consulting GmbH',
      vertragspartnerKunde: 'WM Consulting GmbH',
    });
    expect(Object.fromEntries(fake.tokenRequests[0] ?? [])).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-id',
      client_secret: 'client-secret',
    });
    const [soql] = fake.queries;
    expect(soql).toMatch(
      /^SELECT Name, Berater_Job__r\.Name, Berater_Kandidat__r\.Name, Kandidat__r\.FirstName, /,
    );
    expect(soql).toContain(', Kunde__r.BillingAddress, ');
    expect(soql).toMatch(/ FROM Match__c WHERE Name = 'PL-10001' LIMIT 1$/);
  });

  it('answers undefined when the query finds no record', async () => {
    await expect((await source()).find('PL-99999')).resolves.toBeUndefined();
  });

  it('signs in again when Salesforce answers 401 INVALID_SESSION_ID, and keeps the new token', async () => {
    const matches = await source();
    await matches.find('PL-10001');
    const issued = fake.tokensIssued;
    fake.expireToken();
    await expect(matches.find('PL-10001')).resolves.toMatchObject({ kunde: 'Elbwerk Logistik AG' });
    expect(fake.tokensIssued).toBe(issued + 1);
    await matches.find('PL-10001');
    expect(fake.tokensIssued).toBe(issued + 1);
  });

  it('retries a 503 of the query', async () => {
    const matches = await source();
    fake.failQueries = [503];
    await expect(matches.find('PL-10001')).resolves.toMatchObject({ matchId: 'PL-10001' });
    expect(fake.queries).toHaveLength(2);
  });

  it.each([400, 401])(
    'does not retry client credentials the token endpoint refuses (%s): the user reads that the CRM refuses the sign-in, and the operators are told',
    async (status) => {
      fake.tokenStatus = status;
      const matches = await source();
      let refusals = 0;
      matches.observe({ crmSignInRefused: () => refusals++ });
      const error = await matches.find('PL-10001').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MatchSourceUnavailableError);
      expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_SIGN_IN_REFUSED_MESSAGE);
      expect(refusals).toBe(1);
      expect(fake.tokenRequests).toHaveLength(1);
    },
  );

  it('retries a token endpoint that answers 503, and answers "CRM nicht erreichbar" without counting a refusal', async () => {
    fake.tokenStatus = 503;
    const matches = await source();
    let refusals = 0;
    matches.observe({ crmSignInRefused: () => refusals++ });
    const error = await matches.find('PL-10001').catch((caught: unknown) => caught);
    expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_UNAVAILABLE_MESSAGE);
    expect(refusals).toBe(0);
    expect(fake.tokenRequests).toHaveLength(3);
  });

  it('ends an attempt whose answer stalls after the headers at CRM_TIMEOUT_MS, and tries again', async () => {
    const matches = await source({ timeoutMs: 300 });
    fake.stallQueries = 1;
    await expect(matches.find('PL-10001')).resolves.toMatchObject({ kunde: 'Elbwerk Logistik AG' });
    expect(fake.queries).toHaveLength(2);
  });

  it('answers "CRM nicht erreichbar" when every answer stalls, after the configured attempts', async () => {
    const matches = await source({ timeoutMs: 200 });
    fake.stallQueries = 3;
    const error = await matches.find('PL-10001').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchSourceUnavailableError);
    expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_UNAVAILABLE_MESSAGE);
    expect(fake.queries).toHaveLength(3);
  });

  it('signs in once more when even fresh tokens are refused, then tells the user and the operators', async () => {
    const matches = await source();
    const refusals: string[] = [];
    matches.observe({ crmSignInRefused: () => refusals.push('refused') });
    await matches.find('PL-10001');
    fake.tokenRequests.length = 0;
    fake.queryAttempts = 0;
    fake.refuseEveryToken = true;

    const error = await matches.find('PL-10001').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchSourceUnavailableError);
    expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_SIGN_IN_REFUSED_MESSAGE);
    expect(fake.tokenRequests).toHaveLength(1);
    expect(fake.queryAttempts).toBe(2);
    expect(refusals).toEqual(['refused']);

    // The next lookup starts afresh: its own sign-in, and once more.
    await matches.find('PL-10001').catch(() => undefined);
    expect(fake.tokenRequests).toHaveLength(3);
    expect(fake.queryAttempts).toBe(4);
    expect(refusals).toHaveLength(2);

    fake.refuseEveryToken = false;
    await expect(matches.find('PL-10001')).resolves.toMatchObject({ matchId: 'PL-10001' });
  });

  it('shows a deal whose candidate is not known yet, with „/“ for the candidate', async () => {
    fake.records = [{ ...SALESFORCE_MATCH, Name: 'PL-10002', Kandidat__r: null }];
    const match = await (await source()).find('PL-10002');
    expect(match).toMatchObject({ matchId: 'PL-10002', kunde: 'Elbwerk Logistik AG' });
    expect(match).not.toHaveProperty('candidateFirstName');
    const rows = displayRows(match as ResolvedMatch);
    expect(rows.find((row) => row.key === 'projektpartner')?.value).toBe('/');
    expect(rows.find((row) => row.key === 'ppGesellschaft')?.value).toBe('/');
  });

  it('still refuses a deal without its customer, naming the field', async () => {
    fake.records = [{ ...SALESFORCE_MATCH, Name: 'PL-10003', Kunde__r: null }];
    const error = await (await source()).find('PL-10003').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchUnreadableError);
    expect((error as MatchUnreadableError).userMessage).toContain('Feld „kunde“: Pflichtfeld fehlt');
  });

  // Builds a whole app (templates seeded, render thread started): slow on a busy machine.
  it('answers the user in German and counts the refusal for the operators, through the API', {
    timeout: 90_000,
  }, async () => {
    const db = await pgliteTestDatabase.open();
    const t = await createTestApp(db, {
      matches: await source(),
      demoStaff: true,
      env: { METRICS_TOKEN: SCRAPER_TOKEN },
    });
    try {
      const berater = await t.signIn('berater@demo.local');
      fake.refuseEveryToken = true;
      const lookup = await t.app.inject({
        method: 'POST',
        url: '/backend/match/PL-10001',
        headers: bearer(berater),
      });
      expect(lookup.statusCode, lookup.body).toBe(503);
      expect(lookup.json()).toMatchObject({ message: CRM_SIGN_IN_REFUSED_MESSAGE });
      const metrics = await t.app.inject({
        method: 'GET',
        url: '/backend/metrics',
        headers: bearer(SCRAPER_TOKEN),
      });
      expect(metrics.body).toMatch(/^crm_sign_in_refusals_total 1$/m);
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });

  describe('many matches at once', () => {
    const id = (n: number) => `PL-${20_000 + n}`;
    const known = (n: number) => ({ ...SALESFORCE_MATCH, Name: id(n), Position__c: `Position ${n}` });
    /** The IDs of each lookup by `IN (…)`, in the order sent. */
    const inQueries = () =>
      fake.queries
        .filter((soql) => soql.includes(' WHERE Name IN ('))
        .map((soql) => [...(/IN \((.*)\)$/.exec(soql)?.[1] ?? '').matchAll(/'PL-[^']*'/g)].length);
    const client = async () => {
      const mapping = await loadCrmMapping(PRESET);
      return new SalesforceCrmClient(options, mapping, PRESET);
    };

    it('asks for 450 IDs in three queries of 200, 200 and 50, and maps the records back by Name', async () => {
      // Every other ID is known.
      fake.records = Array.from({ length: 225 }, (_, n) => known(2 * n));
      const ids = Array.from({ length: 450 }, (_, n) => id(n));
      const records = await (await client()).fetchRecords(ids);
      expect(inQueries()).toEqual([200, 200, 50]);
      expect(fake.queries).toHaveLength(3);
      expect(fake.queries[0]).toMatch(
        /^SELECT Name, Berater_Job__r\.Name, .* FROM Match__c WHERE Name IN \('PL-20000', 'PL-20001', /,
      );
      expect(records.size).toBe(225);
      expect(records.get(id(0))).toEqual(known(0));
      expect(records.get(id(448))).toEqual(known(448));
      expect(records.has(id(1))).toBe(false);
      expect(records.has(id(449))).toBe(false);
    });

    it('follows nextRecordsUrl through a paged answer', async () => {
      fake.records = Array.from({ length: 200 }, (_, n) => known(n));
      fake.pageSize = 75;
      const records = await (await client()).fetchRecords(fake.records.map((record) => String(record.Name)));
      expect(fake.queries).toHaveLength(1);
      expect(fake.pageRequests).toEqual([
        expect.stringMatching(/^\/services\/data\/v62\.0\/query\/01g/),
        expect.stringMatching(/^\/services\/data\/v62\.0\/query\/01g/),
      ]);
      expect(records.size).toBe(200);
      expect(records.get(id(199))).toEqual(known(199));
    });

    it('escapes a quote in an ID', async () => {
      fake.records = [{ ...SALESFORCE_MATCH, Name: "PL-O'Brien" }];
      const records = await (await client()).fetchRecords(["PL-O'Brien", 'PL-20001']);
      expect(fake.queries[0]).toMatch(/ WHERE Name IN \('PL-O\\'Brien', 'PL-20001'\)$/);
      expect([...records.keys()]).toEqual(["PL-O'Brien"]);
    });

    it('keeps each query URL within 16 KB: long IDs fill a chunk sooner', async () => {
      const long = (n: number) => `PL-${String(n).padStart(400, '0')}`;
      fake.records = [{ ...SALESFORCE_MATCH, Name: long(49) }];
      const records = await (await client()).fetchRecords(Array.from({ length: 50 }, (_, n) => long(n)));
      expect(fake.queries.length).toBe(2);
      for (const soql of fake.queries)
        expect(`${API}/query?q=${encodeURIComponent(soql)}`.length).toBeLessThanOrEqual(16_000);
      expect([...records.keys()]).toEqual([long(49)]);
    });

    it('finds a record whose ID differs in case, as the query of find does', async () => {
      fake.records = [{ ...SALESFORCE_MATCH, Name: 'pl-20005' }];
      const records = await (await client()).fetchRecords([id(5)]);
      expect(records.get(id(5))).toMatchObject({ Name: 'pl-20005' });
    });

    it('answers findMany with the matches, undefined for unknown IDs and the unreadable record as its error', async () => {
      fake.records = [known(1), { ...known(2), Kunde__r: null }, known(3)];
      fake.failQueries = [503];
      const matches = await source();
      const found = await matches.findMany([id(1), id(2), id(3), id(4), id(1)]);
      // The 503 is retried: the one query for all IDs, twice.
      expect(inQueries()).toEqual([4, 4]);
      expect([...found.keys()]).toEqual([id(1), id(2), id(3), id(4)]);
      expect(found.get(id(1))).toEqual(await matches.find(id(1)));
      expect(found.get(id(3))).toMatchObject({ matchId: id(3), position: 'Position 3' });
      expect(found.get(id(2))).toBeInstanceOf(MatchUnreadableError);
      expect((found.get(id(2)) as MatchUnreadableError).userMessage).toContain(
        'Feld „kunde“: Pflichtfeld fehlt',
      );
      expect(found.get(id(4))).toBeUndefined();
    });

    it('throws "CRM nicht erreichbar" when Salesforce fails every attempt', async () => {
      fake.failQueries = [503, 503, 503];
      const error = await (await source()).findMany([id(1)]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MatchSourceUnavailableError);
      expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_UNAVAILABLE_MESSAGE);
      expect(fake.queries).toHaveLength(3);
    });
  });

  it('refuses a mapping path SOQL cannot select, naming field and path', () => {
    const mapping = parseCrmMapping(
      { matchId: 'Name', fields: { kunde: 'Contacts__r.records[0].Name' } },
      'sf.json',
    );
    expect(() => new SalesforceCrmClient(options, mapping, 'sf.json')).toThrow(ConfigError);
    expect(() => new SalesforceCrmClient(options, mapping, 'sf.json')).toThrow(
      'kunde ("Contacts__r.records[0].Name")',
    );
  });
});
