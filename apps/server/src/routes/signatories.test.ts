import { signatoryListSchema } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { loadCompanyData } from '../templates/companies.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const companyData = await loadCompanyData(loadConfig({}, '0').configDir);

describe.each(testDatabases())('signatories on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { companyData, demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const list = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/backend/signatories', headers });

  it.each(['berater@demo.local', 'legal@demo.local', 'leitung@demo.local'])(
    'lists id, name and function of config/signatories.json for %s, without e-mail addresses',
    async (email) => {
      const response = await list(bearer(await t.signIn(email)));
      expect(response.statusCode).toBe(200);
      expect(signatoryListSchema.parse(response.json())).toEqual(
        companyData.signatories.map((person) => ({
          id: person.id,
          name: person.name,
          function: person.function,
        })),
      );
      expect(response.body).not.toContain('@');
    },
  );

  it('answers 403 to a signed-in user without permission', async () => {
    const response = await list(bearer(await t.signIn('neu@demo.local')));
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('forbidden');
  });

  it('answers 401 without a token', async () => {
    const response = await list({});
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unauthorized');
  });
});
