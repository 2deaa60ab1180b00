import { join } from 'node:path';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MatchStore } from '../../matches/match-store.js';
import type { ProductEvent } from '../../shared/product-events.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { testDatabases } from '../../test/databases.js';
import { sentPartnerEnvelope } from '../../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { EnvelopesRepository } from '../envelopes-repository.js';
import { LinkExpiries } from './link-expiries.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
let partners = 0;

describe.each(testDatabases())('recording expired signing links on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    berater = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  /** A replica's run on a clock the test sets; what it tells other systems lands in `told`. */
  function expiriesAt(clock: { now: Date }, told: ProductEvent[]) {
    const envelopes = new EnvelopesRepository(db, { record: async (event) => void told.push(event) });
    return new LinkExpiries({ db, envelopes, now: () => clock.now });
  }

  async function sentEnvelope() {
    const partner = { name: 'Paul Partner', email: `paul.${++partners}@partner.example` };
    const sent = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    const { token_expires_at } = await db
      .selectFrom('envelope_recipients')
      .select('token_expires_at')
      .where('id', '=', sent.recipientId)
      .executeTakeFirstOrThrow();
    return { ...sent, expiresAt: token_expires_at as Date };
  }

  const expiredEvents = (envelopeId: string) =>
    db
      .selectFrom('envelope_events')
      .select(['recipient_id', 'detail'])
      .where('envelope_id', '=', envelopeId)
      .where('type', '=', 'expired')
      .execute();

  it('records an expired link once, even with two replicas, and tells other systems', async () => {
    const { id, recipientId, expiresAt } = await sentEnvelope();
    const told: ProductEvent[] = [];
    const clock = { now: new Date(expiresAt.getTime() - 60_000) };
    expect(await expiriesAt(clock, told).recordDue()).toBe(0);
    expect(await expiredEvents(id)).toEqual([]);

    clock.now = new Date(expiresAt.getTime() + 60_000);
    await Promise.all([expiriesAt(clock, told).recordDue(), expiriesAt(clock, told).recordDue()]);
    await expiriesAt(clock, told).recordDue();
    const events = await expiredEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]?.recipient_id).toBe(recipientId);
    expect(events[0]?.detail).toMatch(
      /^Link von Paul Partner <paul\.\d+@partner\.example> am .* abgelaufen$/,
    );
    expect(told.filter((e) => e.kind === 'envelope.event' && e.envelopeId === id)).toEqual([
      expect.objectContaining({ type: 'expired', recipientId }),
    ]);
  });

  it('records a renewed link that expires again once more, and none of a withdrawn envelope', async () => {
    const { id, recipientId } = await sentEnvelope();
    const told: ProductEvent[] = [];
    const renew = () =>
      t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${id}/recipients/${recipientId}/renew-link`,
        headers: bearer(berater),
      });
    const expiresAt = async () =>
      (
        await db
          .selectFrom('envelope_recipients')
          .select('token_expires_at')
          .where('id', '=', recipientId)
          .executeTakeFirstOrThrow()
      ).token_expires_at as Date;
    const clock = { now: new Date((await expiresAt()).getTime() + 1000) };
    await expiriesAt(clock, told).recordDue();
    expect(await expiredEvents(id)).toHaveLength(1);

    expect((await renew()).statusCode).toBe(200);
    const renewedUntil = await expiresAt();
    clock.now = new Date(renewedUntil.getTime() - 60_000);
    await expiriesAt(clock, told).recordDue();
    expect(await expiredEvents(id)).toHaveLength(1);
    clock.now = new Date(renewedUntil.getTime() + 1000);
    await expiriesAt(clock, told).recordDue();
    expect(await expiredEvents(id)).toHaveLength(2);

    const withdrawn = await sentEnvelope();
    const voided = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${withdrawn.id}/void`,
      headers: bearer(berater),
      payload: { reason: 'Falscher Stundensatz' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    await expiriesAt({ now: new Date(withdrawn.expiresAt.getTime() + 1000) }, told).recordDue();
    expect(await expiredEvents(withdrawn.id)).toEqual([]);
  });
});
