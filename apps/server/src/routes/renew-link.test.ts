import { join } from 'node:path';
import type { EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope, signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const partner = { name: 'Paul Partner' };
/** Each envelope its own partner address: mail of an earlier test may still arrive meanwhile. */
let envelopes = 0;

describe.each(testDatabases())('Link erneuern on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;
  let legal: string;
  let colleague: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    berater = await t.signIn('berater@demo.local');
    legal = await t.signIn('legal@demo.local');
    colleague = await t.signIn('anna.albrecht@demo.local');
  });
  beforeEach(() => {
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const view = async (id: string): Promise<EnvelopeView> =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${id}`,
        headers: bearer(berater),
      })
    ).json();

  /** A project partner contract of Berta's, sent: the partner holds a link. */
  async function sentEnvelope(): Promise<{ id: string; recipientId: string; link: string; email: string }> {
    const email = `paul.${++envelopes}@partner.example`;
    const sent = await sentPartnerEnvelope(t, {
      token: berater,
      matchId: match.matchId,
      partner: { name: partner.name, email },
    });
    return { ...sent, email };
  }

  const renew = (id: string, recipientId: string, token = berater) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/recipients/${recipientId}/renew-link`,
      headers: bearer(token),
    });
  const open = (link: string) =>
    t.app.inject({ method: 'GET', url: '/backend/signing', headers: { 'x-signing-token': link } });

  it('gives a signer whose link expired a new one by mail; the old one stops working', async () => {
    const { id, recipientId, link, email } = await sentEnvelope();
    await db
      .updateTable('envelope_recipients')
      .set({ token_expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', recipientId)
      .execute();
    expect((await open(link)).statusCode).toBe(410);

    const renewed = await renew(id, recipientId);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const recipient = (renewed.json() as EnvelopeView).recipients.find((r) => r.id === recipientId);
    expect(new Date(recipient?.linkExpiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);
    expect((renewed.json() as EnvelopeView).events.at(-1)).toMatchObject({
      type: 'link_renewed',
      actor: 'berater@demo.local',
    });

    const newLink = await t.mailer.signingLink(email);
    expect(newLink).not.toBe(link);
    expect((await open(link)).json()).toMatchObject({ error: 'link_invalid' });
    expect((await open(newLink)).statusCode).toBe(200);
    await signWithLink(t, newLink, partner.name);
    expect((await view(id)).status).toBe('completed');
  });

  it('is for the creator and legal staff, not for other colleagues', async () => {
    const { id, recipientId, email } = await sentEnvelope();
    const mailsTo = async () =>
      (await db.selectFrom('outgoing_mail').select('id').where('recipient', '=', email).execute()).length;
    expect((await renew(id, recipientId, colleague)).statusCode).toBe(403);
    expect(await mailsTo()).toBe(1);
    expect((await renew(id, recipientId, legal)).statusCode).toBe(200);
    expect(await mailsTo()).toBe(2);
  });

  it('refuses a signer who signed, a person not in the envelope, and a voided envelope, with a German reason', async () => {
    const { id, recipientId, link } = await sentEnvelope();
    expect((await renew(id, '999999999')).json()).toMatchObject({
      error: 'envelope_closed',
      message: 'Diese Person steht nicht in diesem Umschlag.',
    });
    await signWithLink(t, link, partner.name);
    const afterSigning = await renew(id, recipientId);
    expect(afterSigning.statusCode).toBe(409);
    expect(afterSigning.json().message).toMatch(/nicht mehr offen/);

    const other = await sentEnvelope();
    const voided = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${other.id}/void`,
      headers: bearer(berater),
      payload: { reason: 'falscher Partner' },
    });
    expect(voided.statusCode).toBe(200);
    expect((await renew(other.id, other.recipientId)).statusCode).toBe(409);
  });
});
