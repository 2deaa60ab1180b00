import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  displayRows,
  formatDate,
  formatPaymentTerm,
  INVALID_DATE,
  MATCH_FALLBACKS,
  type MatchRecord,
  plausibilityHints,
  resolveMatch,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DatabaseMatchSource } from './database-match-source.js';
import { seedDemoMatches } from './demo.js';
import {
  importExitCode,
  importMatches,
  importReport,
  type MatchImportResult,
  parseMatchFile,
} from './import.js';
import { MatchStore } from './match-store.js';

const DEMO_FILE = join(loadConfig({}, '0.0.0-test').configDir, 'demo-matches.json');

const json = (records: unknown) => JSON.stringify(records, null, 2);

describe('parseMatchFile: JSON', () => {
  it('reads every record, keeping numbers and text as given and null as missing', () => {
    const parsed = parseMatchFile(
      json([
        { matchId: 'PL-1', kunde: 'Elbwerk Logistik AG', ek: 92, vk: '118,00', addAgreements: null },
        { matchId: 'PL-2', tagessatzEk: 720 },
      ]),
    );
    expect(parsed.refused).toEqual([]);
    expect(parsed.valid).toEqual([
      { matchId: 'PL-1', kunde: 'Elbwerk Logistik AG', ek: 92, vk: '118,00' },
      { matchId: 'PL-2', tagessatzEk: 720 },
    ]);
  });

  it('normalises match IDs as the ID input does', () => {
    const parsed = parseMatchFile(json([{ matchId: 'pl-7' }, { matchId: ' 8 ' }, { matchId: 9 }]));
    expect(parsed.valid.map((r) => r.matchId)).toEqual(['PL-7', 'PL-8', 'PL-9']);
  });

  it('refuses invalid records with their entry number and a reason naming the field', () => {
    const text = `[
  { "matchId": "PL-1", "kunde": "Gut GmbH" },
  {
    "matchId": "PL-2",
    "kunde": 42
  },
  { "kunde": "ohne ID" },
  { "matchId": "PL-../x" },
  { "matchId": "PL-${'A'.repeat(40)}" },
  { "matchId": "PL-5", "startDatum": "2027-01-01", "ek": true },
  "kein Objekt"
]`;
    const { valid, refused } = parseMatchFile(text);
    expect(valid.map((r) => r.matchId)).toEqual(['PL-1']);
    expect(refused).toEqual([
      { entry: 2, matchId: 'PL-2', reason: 'Das Feld „kunde“ muss Text sein, nicht die Zahl 42.' },
      { entry: 3, reason: 'Das Feld „matchId“ fehlt.' },
      { entry: 4, reason: expect.stringMatching(/„PL-\.\.\/x“.*nur Buchstaben, Ziffern/) },
      { entry: 5, reason: expect.stringMatching(/zu lang/) },
      {
        entry: 6,
        matchId: 'PL-5',
        reason:
          'Unbekannte Felder: „startDatum“ (gemeint: „startdatum“?). Das Feld „ek“ muss eine Zahl oder Text sein, nicht der Wahrheitswert true.',
      },
      { entry: 7, reason: expect.stringMatching(/kein JSON-Objekt/) },
    ]);
  });

  it('names the entries of a JSON file written on one line apart, though all are on line 1', () => {
    const { refused } = parseMatchFile(
      '[{"matchId":"PL-1"},{"kunde":"ohne ID"},{"matchId":"PL-3","kunde":7}]',
    );
    expect(refused).toEqual([
      { entry: 2, reason: 'Das Feld „matchId“ fehlt.' },
      { entry: 3, matchId: 'PL-3', reason: 'Das Feld „kunde“ muss Text sein, nicht die Zahl 7.' },
    ]);
    expect(importReport({ imported: 0, valid: 1, new: 1, changed: 0, unchanged: 0, refused })).toEqual([
      '0 Matches importiert, 2 abgelehnt',
      'Eintrag 2: Das Feld „matchId“ fehlt.',
      'Eintrag 3: PL-3: Das Feld „kunde“ muss Text sein, nicht die Zahl 7.',
    ]);
  });

  it('refuses every entry of a match ID that occurs twice, naming both', () => {
    const { valid, refused } = parseMatchFile(
      '[\n{"matchId":"PL-1","kunde":"A"},\n{"matchId":"PL-2"},\n{"matchId":"pl-1","kunde":"B"}\n]',
    );
    expect(valid.map((r) => r.matchId)).toEqual(['PL-2']);
    expect(refused).toEqual([
      { entry: 1, matchId: 'PL-1', reason: 'Die Match-ID kommt in der Datei mehrfach vor (Einträge 1, 3).' },
      { entry: 3, matchId: 'PL-1', reason: 'Die Match-ID kommt in der Datei mehrfach vor (Einträge 1, 3).' },
    ]);
  });

  it('refuses a row with active markup in a value, keeping angle brackets as text', () => {
    const { valid, refused } = parseMatchFile(
      json([
        { matchId: 'PL-1', kunde: 'Evil <script>alert(1)</script> GmbH' },
        { matchId: 'PL-2', position: 'Entwickler C++ <Embedded> & Qt' },
        { matchId: 'PL-3', ansprechpartnerKunde: '<img src=x onerror=alert(1)>' },
        { matchId: 'PL-4', kunde: 'javascript:alert(1)' },
      ]),
    );
    expect(valid.map((r) => r.matchId)).toEqual(['PL-2']);
    expect(refused.map(({ matchId, reason }) => ({ matchId, reason }))).toEqual([
      { matchId: 'PL-1', reason: 'Das Feld „kunde“ enthält HTML oder Skript („<script>“).' },
      {
        matchId: 'PL-3',
        reason: 'Das Feld „ansprechpartnerKunde“ enthält HTML oder Skript („<img src=x onerror=alert(1)>“).',
      },
      { matchId: 'PL-4', reason: 'Das Feld „kunde“ enthält HTML oder Skript („javascript:“).' },
    ]);
  });

  it('refuses a file that is not a JSON array of records as a whole', () => {
    expect(parseMatchFile('{"matchId":"PL-1"}').refused).toEqual([
      { line: 1, reason: expect.stringMatching(/JSON/) },
    ]);
    expect(parseMatchFile('[{"matchId":"PL-1"},').refused).toEqual([
      { line: 1, reason: expect.stringMatching(/kein gültiges JSON/) },
    ]);
    expect(parseMatchFile(' \n').refused).toEqual([{ line: 1, reason: 'Die Datei ist leer.' }]);
  });
});

describe('parseMatchFile: CSV', () => {
  it('reads a German Excel file: BOM, semicolons, CRLF, quotes, line breaks and separators in values', () => {
    const text = [
      '\uFEFFmatchId;kunde;aufgabenbeschreibung;ek;vk;stundenProWoche;zahlungszielPP',
      'PL-1;"Brückner & Söhne ""Maschinenbau"" GmbH";"Zeile eins;\r\nZeile <zwei>";92,50;"1.180,00";40;30 days',
      'pl-2;Elbwerk Logistik AG;;;;;',
      '',
      ';;;;;;',
      '3;Einfach, mit Komma;kurz;;;;',
    ].join('\r\n');
    const { valid, refused } = parseMatchFile(text);
    expect(refused).toEqual([]);
    expect(valid).toEqual([
      {
        matchId: 'PL-1',
        kunde: 'Brückner & Söhne "Maschinenbau" GmbH',
        aufgabenbeschreibung: 'Zeile eins;\nZeile <zwei>',
        ek: '92,50',
        vk: '1.180,00',
        stundenProWoche: '40',
        zahlungszielPP: '30 days',
      },
      { matchId: 'PL-2', kunde: 'Elbwerk Logistik AG' },
      { matchId: 'PL-3', kunde: 'Einfach, mit Komma', aufgabenbeschreibung: 'kurz' },
    ]);
  });

  it('reads a comma-separated file', () => {
    const { valid } = parseMatchFile('matchId,kunde,ek\nPL-1,"Müller, Meier",850\n');
    expect(valid).toEqual([{ matchId: 'PL-1', kunde: 'Müller, Meier', ek: '850' }]);
  });

  it('refuses rows whose cells do not fit the header, with the line they start on', () => {
    const { valid, refused } = parseMatchFile('matchId,kunde\nPL-1,A\nPL-2,B,C\n"PL-\n3"\n');
    expect(valid.map((r) => r.matchId)).toEqual(['PL-1']);
    expect(refused).toEqual([
      { line: 3, matchId: 'PL-2', reason: expect.stringMatching(/3 Werte, die Kopfzeile 2 Spalten/) },
      {
        line: 4,
        reason: expect.stringMatching(/^Die Zeile hat 1 Wert, die Kopfzeile 2 Spalten\..*„matchId“ enthält/),
      },
    ]);
  });

  it('refuses a file with an unknown, repeated or missing header column as a whole', () => {
    expect(parseMatchFile('matchId;Kunde;notiz\nPL-1;A;x').refused).toEqual([
      {
        line: 1,
        reason: 'Unbekannte Spalten in der Kopfzeile: „Kunde“ (gemeint: „kunde“?), „notiz“.',
      },
    ]);
    expect(parseMatchFile('matchId,kunde,kunde\nPL-1,A,B').refused[0]?.reason).toMatch(/mehrfach.*„kunde“/);
    expect(parseMatchFile('kunde\nA').refused[0]?.reason).toMatch(/keine Spalte „matchId“/);
  });

  it('refuses every row of a match ID that occurs twice, naming both lines', () => {
    const { valid, refused } = parseMatchFile('matchId,kunde\nPL-1,A\nPL-2,B\npl-1,C\n');
    expect(valid.map((r) => r.matchId)).toEqual(['PL-2']);
    expect(refused).toEqual([
      { line: 2, matchId: 'PL-1', reason: 'Die Match-ID kommt in der Datei mehrfach vor (Zeilen 2, 4).' },
      { line: 4, matchId: 'PL-1', reason: 'Die Match-ID kommt in der Datei mehrfach vor (Zeilen 2, 4).' },
    ]);
  });

  it('refuses a file with a broken quote as a whole', () => {
    const { valid, refused } = parseMatchFile('matchId,kunde\nPL-1,A\nPL-2,"offen\nPL-3,C\n');
    expect(valid).toEqual([]);
    expect(refused).toEqual([{ line: 3, reason: expect.stringMatching(/Anführungszeichen in Zeile 3/) }]);
  });
});

describe('importReport and importExitCode', () => {
  const result = (imported: number, valid: number, refused: number): MatchImportResult => ({
    imported,
    valid,
    new: valid,
    changed: 0,
    unchanged: 0,
    refused: Array.from({ length: refused }, (_, i) => ({
      line: i + 2,
      matchId: `PL-${i}`,
      reason: 'kaputt',
    })),
  });

  it('summarises and lists every refused row', () => {
    expect(importReport(result(0, 1, 2))).toEqual([
      '0 Matches importiert, 2 abgelehnt',
      'Zeile 2: PL-0: kaputt',
      'Zeile 3: PL-1: kaputt',
    ]);
    expect(
      importReport({
        imported: 0,
        valid: 0,
        new: 0,
        changed: 0,
        unchanged: 0,
        refused: [{ line: 1, reason: 'Die Datei ist leer.' }],
      }),
    ).toEqual(['0 Matches importiert, 1 abgelehnt', 'Zeile 1: Die Datei ist leer.']);
  });

  it('fails only when something was refused and nothing imported', () => {
    expect(importExitCode(result(3, 3, 0))).toBe(0);
    expect(importExitCode(result(3, 3, 1))).toBe(0);
    expect(importExitCode(result(0, 3, 1))).toBe(1);
    expect(importExitCode(result(0, 0, 0))).toBe(0);
  });
});

describe('demo matches', async () => {
  const { valid, refused } = parseMatchFile(await readFile(DEMO_FILE, 'utf8'));
  const resolved = valid.map(resolveMatch);
  const values = valid.flatMap((record) => Object.values(record).map(String));

  it('import without a refused row, with consecutive IDs from PL-10001', () => {
    expect(refused).toEqual([]);
    expect(valid.length).toBeGreaterThanOrEqual(25);
    expect(valid.map((r) => r.matchId)).toEqual(valid.map((_, i) => `PL-${10001 + i}`));
  });

  it('name every company as Vertragspartner', () => {
    const companies = new Set(valid.flatMap((r) => [r.vertragspartnerPP, r.vertragspartnerKunde]));
    expect(companies).toEqual(
      new Set(['WM Consulting GmbH', 'WE Engineering GmbH', 'WP Projects GmbH', undefined]),
    );
  });

  it('have freelancers and partners employed by a partner company, each with a Gesellschaft', () => {
    const kinds = new Set(valid.filter((r) => r.ppGesellschaft).map((r) => r.Anstellungsart));
    expect(kinds).toEqual(new Set(['Freiberufler', 'Angestellt über Partnerfirma']));
  });

  it('have a record with only the fallback fields, and the fallbacks resolve', () => {
    const primaries = Object.keys(MATCH_FALLBACKS) as (keyof typeof MATCH_FALLBACKS)[];
    const fallbackOnly = valid.filter((r) =>
      primaries.every((primary) => r[primary] === undefined && r[MATCH_FALLBACKS[primary]] !== undefined),
    );
    expect(fallbackOnly.length).toBeGreaterThanOrEqual(1);
    for (const record of fallbackOnly) {
      const match = resolveMatch(record);
      for (const primary of primaries) expect(match[primary]).toBe(record[MATCH_FALLBACKS[primary]]);
    }
  });

  it('have short and long task descriptions, some of several hundred characters over several lines', () => {
    const descriptions = valid.map((r) => r.aufgabenbeschreibung ?? '');
    expect(descriptions.some((d) => d.length > 40 && !d.includes('\n'))).toBe(true);
    expect(
      descriptions.filter((d) => d.length > 300 && d.split('\n').length > 3).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('have missing values', () => {
    const sparse = resolved.filter((m) => displayRows(m).filter((row) => row.value === '/').length >= 10);
    expect(sparse.length).toBeGreaterThanOrEqual(1);
  });

  it('have English payment terms and malformed dates', () => {
    const terms = valid.flatMap((r) => [r.zahlungszielPP, r.zahlungszielKunde]);
    expect(terms).toEqual(expect.arrayContaining(['30 days', '2 weeks', '1 month']));
    expect(terms.map(formatPaymentTerm)).toEqual(expect.arrayContaining(['30 Tage', '2 Wochen', '1 Monat']));
    expect(valid.filter((r) => formatDate(r.startdatum) === INVALID_DATE).length).toBeGreaterThanOrEqual(1);
  });

  it('have text that needs escaping in documents and HTML', () => {
    for (const char of ['&', '<', '>', '"', 'ä', 'ö', 'ü', 'ß']) {
      expect(
        values.some((v) => v.includes(char)),
        char,
      ).toBe(true);
    }
  });

  it('give every plausibility hint', () => {
    const codes = new Set(
      resolved.flatMap((m) => plausibilityHints(m, new Date(2027, 0, 1)).map((h) => h.code)),
    );
    expect(codes).toEqual(
      new Set([
        'end-before-start',
        'vk-below-ek-remote',
        'vk-below-ek-onsite',
        'hours-out-of-range',
        'start-in-past',
      ]),
    );
    const hours = valid.map((r) => Number(r.stundenProWoche));
    expect(hours.some((h) => h > 60) && hours.some((h) => h < 1)).toBe(true);
  });

  it('give rates as numbers and as German text', () => {
    expect(valid.some((r) => typeof r.ek === 'number')).toBe(true);
    expect(valid.some((r) => typeof r.ek === 'string' && r.ek.includes(','))).toBe(true);
  });
});

describe.each(testDatabases())('match import on $name', (database) => {
  let db: Db;
  let store: MatchStore;
  let source: DatabaseMatchSource;

  beforeAll(async () => {
    db = await database.open();
    store = new MatchStore(db);
    source = new DatabaseMatchSource(db);
  });
  beforeEach(async () => {
    await db.deleteFrom('matches').execute();
  });
  afterAll(async () => {
    await db.destroy();
  });

  const count = async () =>
    Number(
      (
        await db
          .selectFrom('matches')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('imports a JSON file; the source answers the matches with fallbacks resolved', async () => {
    const result = await importMatches(
      json([
        { matchId: 'PL-1', kunde: 'Elbwerk Logistik AG', ek: 92, vk: '118,00' },
        { matchId: 'PL-2', kuendigungsfrist: '4 Wochen', tagessatzEk: 720, tagessatzOnsite: '1.050,00' },
      ]),
      store,
    );
    expect(result).toEqual({ valid: 2, new: 2, changed: 0, unchanged: 0, imported: 2, refused: [] });
    expect(await source.find('PL-1')).toEqual({
      matchId: 'PL-1',
      kunde: 'Elbwerk Logistik AG',
      ek: 92,
      vk: '118,00',
    });
    expect(await source.find('PL-2')).toEqual({
      matchId: 'PL-2',
      kuendigungsfristKunde: '4 Wochen',
      ek: 720,
      vk2: '1.050,00',
    });
    expect(await source.find('PL-3')).toBeUndefined();
  });

  it('imports a CSV file with quoted line breaks and special characters unchanged', async () => {
    await importMatches(
      '\uFEFFmatchId;kunde;aufgabenbeschreibung\r\nPL-1;"Brückner & Söhne";"Zeile 1\r\n„Zeile“ <2>"\r\n',
      store,
    );
    expect(await source.find('PL-1')).toEqual({
      matchId: 'PL-1',
      kunde: 'Brückner & Söhne',
      aufgabenbeschreibung: 'Zeile 1\n„Zeile“ <2>',
    });
  });

  it('imports nothing from a file with a refused row', async () => {
    const result = await importMatches(json([{ matchId: 'PL-1' }, { matchId: 'PL-2', kunde: 5 }]), store);
    expect(result).toEqual({
      valid: 1,
      new: 1,
      changed: 0,
      unchanged: 0,
      imported: 0,
      refused: [expect.objectContaining({ matchId: 'PL-2' })],
    });
    expect(importExitCode(result)).toBe(1);
    expect(await count()).toBe(0);
  });

  it('imports the valid rows when asked to skip invalid ones', async () => {
    const result = await importMatches(json([{ matchId: 'PL-1' }, { matchId: 'PL-2', kunde: 5 }]), store, {
      skipInvalid: true,
    });
    expect(result).toEqual({
      valid: 1,
      new: 1,
      changed: 0,
      unchanged: 0,
      imported: 1,
      refused: [expect.objectContaining({ matchId: 'PL-2' })],
    });
    expect(importExitCode(result)).toBe(0);
    expect(await source.find('PL-1')).toEqual({ matchId: 'PL-1' });
    expect(await source.find('PL-2')).toBeUndefined();
  });

  it('imports neither row of a duplicated ID', async () => {
    const result = await importMatches(
      json([{ matchId: 'PL-1' }, { matchId: 'pl-1' }, { matchId: 'PL-2' }]),
      store,
      {
        skipInvalid: true,
      },
    );
    expect(result.imported).toBe(1);
    expect(await source.find('PL-1')).toBeUndefined();
  });

  it('is idempotent per match ID: a second import replaces the fields and adds no rows', async () => {
    const file = json([
      { matchId: 'PL-1', kunde: 'Alt GmbH', ek: 90, addAgreements: 'Reisekosten' },
      { matchId: 'PL-2', kunde: 'Bleibt AG' },
    ]);
    await importMatches(file, store);
    await importMatches(file, store);
    const before = await db
      .selectFrom('matches')
      .selectAll()
      .where('match_id', '=', 'PL-1')
      .executeTakeFirstOrThrow();

    const result = await importMatches(json([{ matchId: 'PL-1', kunde: 'Neu GmbH', ek: '95,00' }]), store);
    expect(result).toMatchObject({ imported: 1, new: 0, changed: 1, unchanged: 0 });
    expect(await count()).toBe(2);
    expect(await source.find('PL-1')).toEqual({ matchId: 'PL-1', kunde: 'Neu GmbH', ek: '95,00' });
    expect(await source.find('PL-2')).toEqual({ matchId: 'PL-2', kunde: 'Bleibt AG' });
    const after = await db
      .selectFrom('matches')
      .selectAll()
      .where('match_id', '=', 'PL-1')
      .executeTakeFirstOrThrow();
    expect(after.imported_at).toEqual(before.imported_at);
    expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
  });

  it('counts new, changed and unchanged rows in a dry run and writes nothing', async () => {
    await importMatches(json([{ matchId: 'PL-1', kunde: 'Alt GmbH', ek: 90 }, { matchId: 'PL-2' }]), store);
    const result = await importMatches(
      json([
        { matchId: 'PL-1', kunde: 'Neu GmbH', ek: 90 },
        { matchId: 'PL-2' },
        { matchId: 'PL-3', kunde: 'Dritte KG' },
      ]),
      store,
      { dryRun: true },
    );
    expect(result).toEqual({ valid: 3, new: 1, changed: 1, unchanged: 1, imported: 0, refused: [] });
    expect(await count()).toBe(2);
    expect(await source.find('PL-1')).toMatchObject({ kunde: 'Alt GmbH' });
  });

  it('writes its record in the same transaction, and nothing when that fails', async () => {
    const failing = importMatches(json([{ matchId: 'PL-1' }]), store, {
      record: async () => {
        throw new Error('audit entry could not be written');
      },
    });
    await expect(failing).rejects.toThrow('audit entry');
    expect(await count()).toBe(0);
    const seen: number[] = [];
    await importMatches(json([{ matchId: 'PL-1' }]), store, {
      record: async (_trx, result) => {
        seen.push(result.imported);
      },
    });
    expect(seen).toEqual([1]);
    expect(await count()).toBe(1);
  });

  it('writes files larger than one statement can carry', async () => {
    const records: MatchRecord[] = Array.from({ length: 2_500 }, (_, i) => ({ matchId: `PL-${i}`, ek: i }));
    expect(await store.upsertMany(records)).toBe(2_500);
    expect(await count()).toBe(2_500);
    expect(await source.find('PL-2499')).toEqual({ matchId: 'PL-2499', ek: 2499 });
  });

  it('imports the demo file without a refused row', async () => {
    const result = await importMatches(await readFile(DEMO_FILE, 'utf8'), store);
    expect(result.refused).toEqual([]);
    expect(result.imported).toBeGreaterThanOrEqual(25);
    const fallbackOnly = await source.find('PL-10004');
    expect(fallbackOnly).toMatchObject({ kuendigungsfristKunde: expect.any(String), ek: expect.anything() });
    expect(fallbackOnly).not.toHaveProperty('tagessatzEk');
  });

  it('seeds the demo matches only into an empty store', async () => {
    expect(await seedDemoMatches(DEMO_FILE, store)).toBe(true);
    const seeded = await count();
    expect(seeded).toBeGreaterThanOrEqual(25);

    await db.deleteFrom('matches').where('match_id', '=', 'PL-10001').execute();
    expect(await seedDemoMatches(DEMO_FILE, store)).toBe(false);
    expect(await count()).toBe(seeded - 1);
  });
});
