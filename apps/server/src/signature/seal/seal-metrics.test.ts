import { join } from 'node:path';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MatchStore } from '../../matches/match-store.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/eventually.js';
import { sentPartnerEnvelope, signWithLink } from '../../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const METRICS_TOKEN = 'scraper-token-of-the-seal-metrics-test';
const partner = { name: 'Mira Metrik', email: 'mira@partner.example' };

/**
 * The seal's gauges as a scraper reads them: the level each sealed envelope reached, and archive
 * timestamps whose renewal is late. Without TSA_URL every seal is B-B. On both databases: the gauges'
 * queries count with the database's own clock.
 */
describe.each(testDatabases())('the seal’s metrics on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let envelopeId: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { env: { METRICS_TOKEN }, demoStaff: true });
    const berater = await t.signIn('berater@demo.local');
    const { id, link } = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    await signWithLink(t, link, partner.name);
    envelopeId = id;
    await eventually('the completed envelope sealed', async () => {
      const row = await db
        .selectFrom('envelopes')
        .select('seal_level')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.seal_level ?? undefined;
    });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const metric = async (name: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/backend/metrics',
      headers: bearer(METRICS_TOKEN),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.body.split('\n').filter((line) => line.startsWith(name));
  };
  const renewalDue = (due: RawBuilder<Date> | null) =>
    db.updateTable('envelopes').set({ seal_renew_at: due }).where('id', '=', envelopeId).execute();

  it('counts a seal without a timestamp authority as B-B', async () => {
    expect(await metric('sealed_envelopes{')).toEqual(['sealed_envelopes{level="B-B"} 1']);
  });

  it('shows an archive renewal overdue once it is more than a day late', async () => {
    // A B-B seal has no archive timestamp to renew.
    expect(await metric('seal_renewals_overdue ')).toEqual(['seal_renewals_overdue 0']);
    try {
      // As a B-LTA PDF whose renewal keeps failing: due 23 hours ago is late, but not overdue yet.
      await renewalDue(sql<Date>`now() - interval '23 hours'`);
      expect(await metric('seal_renewals_overdue ')).toEqual(['seal_renewals_overdue 0']);
      await renewalDue(sql<Date>`now() - interval '2 days'`);
      expect(await metric('seal_renewals_overdue ')).toEqual(['seal_renewals_overdue 1']);
      await renewalDue(sql<Date>`now() + interval '90 days'`);
      expect(await metric('seal_renewals_overdue ')).toEqual(['seal_renewals_overdue 0']);
    } finally {
      await renewalDue(null);
    }
  });
});
