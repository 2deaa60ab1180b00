import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config.js';
import { MatchUnreadableError } from '../match-source.js';
import { type CrmMapping, loadCrmMapping, mapCrmRecord, parseCrmMapping, readPath } from './mapping.js';

const REPOSITORY_CONFIG = new URL('../../../../../config/', import.meta.url).pathname;

/** A record as a generic CRM might answer, in the shape config/crm-mapping.example.json maps. */
export const GENERIC_CRM_RECORD = {
  id: 'PL-10001',
  owner: { name: 'Anna Albrecht' },
  recruiter: { name: 'Bernd Brinkmann' },
  candidate: {
    firstName: 'Jana',
    lastName: 'Kowalski',
    displayName: 'Jana Kowalski',
    company: {
      name: null,
      address: { street: 'Lindenallee 14', zip: '22587', city: 'Hamburg' },
    },
  },
  customer: {
    name: 'Elbwerk Logistik AG',
    address: { street: 'Kaiwiese 12', postalCode: '20457', city: 'Hamburg', country: 'Deutschland' },
    contacts: [{ name: 'Markus Oberländer' }, { name: 'Zweite Person' }],
  },
  period: { start: '2027-01-04T00:00:00.000Z', end: '30.06.2027' },
  terms: { noticePeriod: '4 Wochen zum Monatsende', paymentDaysPartner: 30, paymentDaysCustomer: '14' },
  rates: { hourly: '92,00', remote: { buy: 92, sell: 118 }, onsite: { buy: 98, sell: '128.5' } },
  hoursPerWeek: 40,
  location: 'Hamburg',
  position: 'SAP S/4HANA FI/CO Berater',
  description: 'Migration der Finanzbuchhaltung.',
  agreements: ['Reisekosten nach Freigabe', '', 'Remote bis 60 %'],
  employmentType: 'Freiberufler',
  contractingCompany: { partner: 'WM Consulting GmbH', customer: 'WM Consulting GmbH' },
};

const mapping = (json: unknown) => parseCrmMapping(json, 'test.json');

function unreadable(run: () => unknown): MatchUnreadableError {
  try {
    run();
  } catch (error) {
    if (error instanceof MatchUnreadableError) return error;
    throw error;
  }
  throw new Error('expected MatchUnreadableError');
}

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected ConfigError');
}

describe('readPath', () => {
  const record = { a: { b: [{ c: 'x' }, { c: null }] }, 'custom-field': 1, list: [['deep']] };
  it.each([
    ['a.b[0].c', 'x'],
    ['a.b[1].c', undefined],
    ['a.b[5].c', undefined],
    ['a.missing.c', undefined],
    ['custom-field', 1],
    ['list[0][0]', 'deep'],
  ])('%s → %j', (path, expected) => {
    expect(readPath(record, path)).toBe(expected);
  });

  it('reads an array answer from its root', () => {
    expect(readPath([{ id: 'PL-1' }], '[0].id')).toBe('PL-1');
  });
});

describe('the example mapping', () => {
  it('maps a generic CRM record: nested paths, array index, fallbacks and every format', async () => {
    const example = await loadCrmMapping(join(REPOSITORY_CONFIG, 'crm-mapping.example.json'));
    const mapped = mapCrmRecord(example, GENERIC_CRM_RECORD, 'PL-10001');
    expect(mapped).toEqual({
      kind: 'match',
      match: {
        matchId: 'PL-10001',
        beraterJob: 'Anna Albrecht',
        beraterKandidat: 'Bernd Brinkmann',
        candidateFirstName: 'Jana',
        candidateLastName: 'Kowalski',
        ppGesellschaft: 'Jana Kowalski',
        ppAdresse: 'Lindenallee 14, 22587 Hamburg',
        kunde: 'Elbwerk Logistik AG',
        ansprechpartnerKunde: 'Markus Oberländer',
        adresseKunde: 'Kaiwiese 12, 20457 Hamburg, Deutschland',
        startdatum: '2027-01-04',
        enddatum: '2027-06-30',
        kuendigungsfristKunde: '4 Wochen zum Monatsende',
        zahlungszielPP: '30 Tage',
        zahlungszielKunde: '14 Tage',
        verguetungssatz: 92,
        ek: 92,
        vk: 118,
        ek2: 98,
        vk2: 128.5,
        stundenProWoche: 40,
        einsatzort: 'Hamburg',
        position: 'SAP S/4HANA FI/CO Berater',
        aufgabenbeschreibung: 'Migration der Finanzbuchhaltung.',
        addAgreements: 'Reisekosten nach Freigabe; Remote bis 60 %',
        Anstellungsart: 'Freiberufler',
        vertragspartnerPP: 'WM Consulting GmbH',
        vertragspartnerKunde: 'WM Consulting GmbH',
      },
    });
  });

  it('maps a deal without a candidate yet: only the ID and the customer are required', async () => {
    const example = await loadCrmMapping(join(REPOSITORY_CONFIG, 'crm-mapping.example.json'));
    const { candidate: _candidate, ...withoutCandidate } = GENERIC_CRM_RECORD;
    const mapped = mapCrmRecord(example, withoutCandidate, 'PL-10001');
    expect(mapped).toMatchObject({
      kind: 'match',
      match: { matchId: 'PL-10001', kunde: 'Elbwerk Logistik AG' },
    });
    expect(mapped.kind === 'match' && mapped.match.candidateLastName).toBeUndefined();
    const { customer: _customer, ...withoutCustomer } = GENERIC_CRM_RECORD;
    expect(() => mapCrmRecord(example, withoutCustomer, 'PL-10001')).toThrow(
      /field kunde .*Pflichtfeld fehlt/,
    );
  });

  it('is valid, and so is the Salesforce preset', async () => {
    await expect(
      loadCrmMapping(join(REPOSITORY_CONFIG, 'crm-mapping.salesforce.json')),
    ).resolves.toMatchObject({
      matchId: 'Name',
    });
  });
});

describe('mapCrmRecord', () => {
  const simple: CrmMapping = mapping({
    matchId: 'data.matchId',
    fields: {
      kunde: { path: 'data.customer', required: true },
      startdatum: { path: 'data.start', format: 'date' },
      ek: 'data.ek',
      position: 'data.position',
    },
  });

  it('keeps numbers in rate fields and makes them text elsewhere, leaving unmapped fields out', () => {
    const mapped = mapCrmRecord(
      simple,
      { data: { matchId: 'pl-7', customer: 'Kunde AG', ek: 95, position: 42 } },
      'PL-7',
    );
    expect(mapped).toEqual({
      kind: 'match',
      match: { matchId: 'PL-7', kunde: 'Kunde AG', ek: 95, position: '42' },
    });
  });

  it('says "other" for an answer without or with another match ID', () => {
    expect(mapCrmRecord(simple, { data: { customer: 'Kunde AG' } }, 'PL-7')).toEqual({
      kind: 'other',
      matchId: undefined,
    });
    expect(mapCrmRecord(simple, { data: { matchId: 'PL-8', customer: 'x' } }, 'PL-7')).toMatchObject({
      kind: 'other',
      matchId: 'PL-8',
    });
  });

  it('names field and paths when a required field is missing', () => {
    const error = unreadable(() =>
      mapCrmRecord(simple, { data: { matchId: 'PL-7', customer: '  ' } }, 'PL-7'),
    );
    expect(error.message).toContain('field kunde (path data.customer)');
    expect(error.userMessage).toBe(
      'Das CRM hat für diesen Match Daten geliefert, die nicht gelesen werden können (Feld „kunde“: Pflichtfeld fehlt). Bitte korrigiere den Match im CRM und gib die ID erneut ein.',
    );
  });

  it('names field and path of a value the format rejects', () => {
    const error = unreadable(() =>
      mapCrmRecord(simple, { data: { matchId: 'PL-7', customer: 'x', start: '31.02.2027' } }, 'PL-7'),
    );
    expect(error.message).toContain('field startdatum (path data.start)');
    expect(error.userMessage).toContain('„startdatum“: erwartet ein Datum');
    expect(error.userMessage).toContain('„31.02.2027“');
  });

  it('refuses an object where text is expected', () => {
    const error = unreadable(() =>
      mapCrmRecord(simple, { data: { matchId: 'PL-7', customer: { name: 'x' } } }, 'PL-7'),
    );
    expect(error.message).toBe(
      'CRM record: field kunde (path data.customer): erwartet Text, erhalten ein Objekt',
    );
  });

  it('names the fallback path whose value is unreadable', () => {
    const withFallback = mapping({
      matchId: 'id',
      fields: { ek: { path: 'ek', fallbacks: ['rates[0]'], format: 'number' } },
    });
    const error = unreadable(() => mapCrmRecord(withFallback, { id: 'PL-1', rates: ['viel'] }, 'PL-1'));
    expect(error.message).toContain('field ek (path rates[0])');
  });
});

describe('parseCrmMapping', () => {
  it('names an unknown target field', () => {
    const message = configError(() => mapping({ matchId: 'id', fields: { kundenname: 'customer.name' } }));
    expect(message).toContain('Invalid CRM mapping test.json');
    expect(message).toContain('kundenname');
  });

  it('names field and path of a malformed path', () => {
    const message = configError(() =>
      mapping({ matchId: 'id', fields: { kunde: { path: 'customer..name' } } }),
    );
    expect(message).toContain('fields.kunde.path ("customer..name")');
  });

  it('names a malformed fallback and the match-ID path', () => {
    expect(
      configError(() => mapping({ matchId: 'id', fields: { kunde: { path: 'a', fallbacks: ['b[x]'] } } })),
    ).toContain('fields.kunde.fallbacks.0 ("b[x]")');
    expect(configError(() => mapping({ matchId: 'a b', fields: {} }))).toContain('matchId ("a b")');
  });

  it('names an unknown formatter and a number format on a text field', () => {
    expect(
      configError(() =>
        mapping({ matchId: 'id', fields: { startdatum: { path: 'start', format: 'datum' } } }),
      ),
    ).toContain('fields.startdatum.format ("datum")');
    expect(
      configError(() => mapping({ matchId: 'id', fields: { kunde: { path: 'k', format: 'number' } } })),
    ).toContain('fields.kunde.format');
  });

  it('reads the writeback section and names a field that is no API name or a key it does not know', () => {
    expect(
      mapping({ matchId: 'id', fields: {}, writeback: { status: 'Vertragsstatus__c' } }).writeback,
    ).toEqual({ status: 'Vertragsstatus__c', attachSealedPdf: true });
    expect(
      configError(() => mapping({ matchId: 'id', fields: {}, writeback: { signedAt: 'Vertrag.am' } })),
    ).toContain('writeback.signedAt ("Vertrag.am"): not a field API name');
    expect(
      configError(() => mapping({ matchId: 'id', fields: {}, writeback: { stauts: 'Vertragsstatus__c' } })),
    ).toContain('writeback');
  });

  it('refuses unknown keys and a missing match-ID path', () => {
    expect(configError(() => mapping({ matchId: 'id', fields: { kunde: { pfad: 'k' } } }))).toContain(
      'fields.kunde',
    );
    expect(configError(() => mapping({ fields: {} }))).toContain('matchId');
  });

  it('stops on a file that is not JSON or cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-crm-mapping-'));
    writeFileSync(join(dir, 'broken.json'), '{ "matchId": ');
    await expect(loadCrmMapping(join(dir, 'broken.json'))).rejects.toThrow(/broken\.json: not JSON/);
    await expect(loadCrmMapping(join(dir, 'missing.json'))).rejects.toThrow(/CRM_MAPPING_FILE: cannot read/);
  });
});
