import { join } from 'node:path';
import { CATALOGUE, type PlaceholderDictionary, TEMPLATE_FIELDS } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { loadCompanyData } from '../templates/companies.js';
import { placeholderDictionary } from '../templates/placeholder-dictionary.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match = await richestDemoMatch(join(configDir, 'demo-matches.json'));

describe('Platzhalter (GET /backend/templates/placeholders)', () => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    t = await createTestApp(db, { demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const placeholders = async (email: string) =>
    t.app.inject({
      method: 'GET',
      url: '/backend/templates/placeholders',
      headers: bearer(await t.signIn(email)),
    });

  it('lists every placeholder of the field dictionary with how it is written and an example from a demo match', async () => {
    const response = await placeholders('legal@demo.local');
    expect(response.statusCode).toBe(200);
    const dictionary: PlaceholderDictionary = response.json();
    expect(dictionary.matchId).toBe(match.matchId);
    expect(dictionary.placeholders.map((p) => p.name)).toEqual(Object.keys(TEMPLATE_FIELDS));
    const byName = new Map(dictionary.placeholders.map((p) => [p.name, p]));
    expect(byName.get('kunde')).toMatchObject({ kind: 'text', syntax: '{kunde}', example: match.kunde });
    expect(byName.get('matchId')?.example).toBe(match.matchId);
    const withCustomer = byName.get('mitKunde');
    expect(withCustomer?.syntax).toBe('{#mitKunde}…{/mitKunde}');
    const [, holds, of] = withCustomer?.example?.match(/^ja bei (\d+) von (\d+) Dokumentarten$/) ?? [];
    expect(Number(of)).toBe(CATALOGUE.size);
    expect(Number(holds)).toBeGreaterThan(0);
    expect(Number(holds)).toBeLessThan(CATALOGUE.size);
    const blocks = byName.get('unterschriften');
    expect(blocks?.kind).toBe('loop');
    expect(blocks?.item.map((i) => i.name)).toEqual(Object.keys(TEMPLATE_FIELDS.unterschriften.item));
    expect(blocks?.item.find((i) => i.name === 'seite')?.example).toMatch(/^Für den /);
  });

  it('is for legal staff and administrators, not for other levels or anyone signed out', async () => {
    expect((await placeholders('ops@demo.local')).statusCode).toBe(200);
    expect((await placeholders('berater@demo.local')).statusCode).toBe(403);
    expect((await placeholders('leitung@demo.local')).statusCode).toBe(403);
    expect((await placeholders('neu@demo.local')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/backend/templates/placeholders' })).statusCode).toBe(
      401,
    );
  });

  it('lists the placeholders without examples where there is no demo match', async () => {
    const dictionary = placeholderDictionary(null, await loadCompanyData(configDir), new Date());
    expect(dictionary.matchId).toBe('');
    expect(dictionary.placeholders).toHaveLength(Object.keys(TEMPLATE_FIELDS).length);
    expect(
      dictionary.placeholders.every((p) => p.example === null && p.item.every((i) => i.example === null)),
    ).toBe(true);
  });
});
