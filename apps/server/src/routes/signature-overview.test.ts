import { join } from 'node:path';
import type { EnvelopeOverview, EnvelopeSeal, HistoryEntry, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope, signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));

describe.each(testDatabases())(
  'Offene Signaturen (GET /backend/signature/envelopes) on $name',
  (database) => {
    let db: Db;
    let t: TestApp;
    let berater: string;
    let legal: string;
    let colleague: string;
    /** Berta's envelopes by the state the test brought them into. */
    const berta = {} as Record<'draft' | 'sent' | 'expired' | 'partial' | 'completed' | 'voided', string>;
    let annas: string;

    beforeAll(async () => {
      db = await database.open();
      await new MatchStore(db).upsertMany([match]);
      t = await createTestApp(db, { demoStaff: true });
      berater = await t.signIn('berater@demo.local');
      legal = await t.signIn('legal@demo.local');
      colleague = await t.signIn('anna.albrecht@demo.local');
      const partnerEnvelope = (name: string, token = berater) =>
        sentPartnerEnvelope(t, {
          token,
          matchId: match.matchId,
          partner: { name, email: `${name.toLowerCase().replace(' ', '.')}@partner.example` },
        });

      const draft = await t.app.inject({
        method: 'POST',
        url: `/backend/generateDocusign/de-we-pp-ev/${match.matchId}`,
        headers: bearer(berater),
        payload: {
          dataList: {
            Absender_UserName: 'Berta Berater',
            Absender_Email: 'berater@demo.local',
            Projektpartner_UserName: 'Dora Draft',
            Projektpartner_Email: 'dora@partner.example',
            vertragspartner_type: 'pp',
          },
        },
      });
      expect(draft.statusCode, draft.body).toBe(200);
      berta.draft = (draft.json().data as string).split('/').pop() as string;
      berta.sent = (await partnerEnvelope('Sina Sent')).id;

      const expired = await partnerEnvelope('Erik Expired');
      berta.expired = expired.id;
      await db
        .updateTable('envelope_recipients')
        .set({ token_expires_at: new Date(Date.now() - 60_000) })
        .where('id', '=', expired.recipientId)
        .execute();

      // A second signer who signed already: the envelope waits for the partner.
      const partial = await partnerEnvelope('Paula Partial');
      berta.partial = partial.id;
      await db
        .insertInto('envelope_recipients')
        .values({
          envelope_id: partial.id,
          position: 5,
          role: 'Kunde',
          name: 'Konrad Kunde',
          email: 'konrad@kunde.example',
          routing_order: 1,
          status: 'signed',
          signed_at: new Date(),
        })
        .execute();

      const completed = await partnerEnvelope('Carla Complete');
      berta.completed = completed.id;
      await signWithLink(t, completed.link, 'Carla Complete');

      berta.voided = (await partnerEnvelope('Vera Voided')).id;
      const voided = await t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${berta.voided}/void`,
        headers: bearer(berater),
        payload: { reason: '' },
      });
      expect(voided.statusCode).toBe(200);

      annas = (await partnerEnvelope('Anton Annas', colleague)).id;
    });
    afterAll(async () => {
      await t.app.close();
      await db.destroy();
    });

    async function overview(token: string, query = ''): Promise<EnvelopeOverview> {
      const response = await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes${query}`,
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    }
    const ids = (page: EnvelopeOverview) => page.envelopes.map((e) => e.id).sort();

    it('shows a user the open envelopes they created, with counts per status', async () => {
      const page = await overview(berater);
      expect(ids(page)).toEqual([berta.draft, berta.sent, berta.expired, berta.partial].sort());
      expect(page.counts).toEqual({
        open: 4,
        all: 6,
        draft: 1,
        awaiting_approval: 0,
        sent: 1,
        partially_signed: 1,
        expired: 1,
        completed: 1,
        declined: 0,
        voided: 1,
        failed: 0,
        lapsed: 0,
      });
      expect(page.total).toBe(4);
      const byId = new Map(page.envelopes.map((e) => [e.id, e]));
      expect(byId.get(berta.draft)?.status).toBe('draft');
      expect(byId.get(berta.sent)?.status).toBe('sent');
      expect(byId.get(berta.expired)?.status).toBe('expired');
      expect(byId.get(berta.partial)?.status).toBe('partially_signed');
      expect(byId.get(berta.partial)?.signers.map((s) => [s.name, s.status])).toEqual([
        ['Paula Partial', 'sent'],
        ['Konrad Kunde', 'signed'],
      ]);
      expect(byId.get(berta.sent)).toMatchObject({
        matchId: match.matchId,
        customer: match.kunde,
        createdBy: 'berater@demo.local',
        mayChange: true,
        lastEvent: { type: 'sent', actor: 'berater@demo.local' },
      });
    });

    it('filters by each status', async () => {
      const expected: Record<string, string[]> = {
        draft: [berta.draft],
        awaiting_approval: [],
        sent: [berta.sent],
        partially_signed: [berta.partial],
        expired: [berta.expired],
        completed: [berta.completed],
        voided: [berta.voided],
        declined: [],
        failed: [],
      };
      for (const [status, want] of Object.entries(expected)) {
        const page = await overview(berater, `?status=${status}`);
        expect(ids(page), status).toEqual(want);
        expect(page.envelopes.every((e) => e.status === status)).toBe(true);
      }
      const closed = (await overview(berater, '?status=completed')).envelopes[0];
      expect(closed).toMatchObject({ mayChange: false, lastEvent: { type: 'completed' } });
      expect((await overview(berater, '?status=voided')).envelopes[0]?.lastEvent?.type).toBe('voided');
      expect((await overview(berater, '?status=all')).total).toBe(6);
    });

    it('shows legal staff every envelope, and a colleague only their own', async () => {
      const all = await overview(legal, '?status=all');
      expect(ids(all)).toEqual(expect.arrayContaining([...Object.values(berta), annas]));
      expect(all.total).toBe(7);
      expect(all.envelopes.find((e) => e.id === annas)?.mayChange).toBe(true);
      const anna = await overview(colleague, '?status=all');
      expect(ids(anna)).toEqual([annas]);
      expect(anna.envelopes[0]?.createdBy).toBe('anna.albrecht@demo.local');
    });

    it('searches by match ID, customer and signer, in any case; wildcards are plain characters', async () => {
      expect((await overview(berater, `?status=all&q=${match.matchId.toLowerCase()}`)).total).toBe(6);
      expect(
        (
          await overview(
            berater,
            `?status=all&q=${encodeURIComponent((match.kunde ?? '').slice(0, 6).toUpperCase())}`,
          )
        ).total,
      ).toBe(6);
      expect(ids(await overview(berater, '?status=all&q=erik.expired@'))).toEqual([berta.expired]);
      expect(ids(await overview(berater, '?status=all&q=konrad'))).toEqual([berta.partial]);
      const search = await overview(berater, '?q=carla');
      expect(search.total).toBe(0);
      expect(search.counts.completed).toBe(1);
      expect((await overview(berater, '?status=all&q=%25')).total).toBe(0);
      expect((await overview(berater, '?status=all&q=_')).total).toBe(0);
    });

    it('pages by 25, newest activity first', async () => {
      // Thirty more drafts for Leo Leitung, copied from Berta's draft.
      const template = await db
        .selectFrom('envelopes')
        .selectAll()
        .where('id', '=', berta.draft)
        .executeTakeFirstOrThrow();
      const { id: _id, ...row } = template;
      await db
        .insertInto('envelopes')
        .values(
          Array.from({ length: 30 }, (_, i) => ({
            ...row,
            created_by: 'leitung@demo.local',
            request_key: null,
            external_id: null,
            updated_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
          })),
        )
        .execute();
      const leitung = await t.signIn('leitung@demo.local');
      const first = await overview(leitung);
      const second = await overview(leitung, '?page=2');
      expect(first.total).toBe(30);
      expect(first.envelopes).toHaveLength(25);
      expect(second.envelopes).toHaveLength(5);
      const times = [...first.envelopes, ...second.envelopes].map((e) => e.updatedAt);
      expect(times).toEqual([...times].sort().reverse());
      expect(new Set([...ids(first), ...ids(second)]).size).toBe(30);
    });

    it('shows the seal of a completed envelope, the same in the overview and in the history', async () => {
      const seals = async (): Promise<{ overview: EnvelopeSeal | null; history: EnvelopeSeal | null }> => {
        const listed = (await overview(berater, '?status=completed')).envelopes.find(
          (e) => e.id === berta.completed,
        );
        const history = await t.app.inject({
          method: 'GET',
          url: `/backend/matches/${match.matchId}/documents`,
          headers: bearer(berater),
        });
        expect(history.statusCode, history.body).toBe(200);
        const entry = (history.json() as HistoryEntry[]).find((h) => h.envelope?.id === berta.completed);
        return { overview: listed?.seal ?? null, history: entry?.envelope?.seal ?? null };
      };
      const both = (seal: EnvelopeSeal) => ({ overview: seal, history: seal });

      // Without a timestamp authority the server's seal is B-B; it is made just after the last signature.
      await expect.poll(seals, { timeout: 15_000 }).toEqual(both({ state: 'sealed', level: 'B-B' }));
      const open = await overview(berater, '?status=all');
      expect(open.envelopes.filter((e) => e.seal !== null).map((e) => e.id)).toEqual([berta.completed]);

      // A seal whose last attempt failed: the envelope is completed, its PDF not made yet.
      const unsealed = { sealed_pdf: null, sealed_sha256: null, seal_level: null } as const;
      await db
        .updateTable('envelopes')
        .set({ ...unsealed, seal_error: null })
        .where('id', '=', berta.completed)
        .execute();
      expect(await seals()).toEqual(both({ state: 'pending', problem: null }));
      await db
        .updateTable('envelopes')
        .set({
          ...unsealed,
          seal_error: 'Kein gültiger Zeitstempel: https://tsa.example/: keine Antwort nach 10 s',
        })
        .where('id', '=', berta.completed)
        .execute();
      expect(await seals()).toEqual(both({ state: 'pending', problem: 'timestamp_unreachable' }));
      const listed = (await overview(berater, '?status=completed')).envelopes[0];
      expect(listed?.signedPdfAvailable).toBe(false);

      // DocuSign's own document, stored: sealed by DocuSign, with no level of ours.
      await db
        .updateTable('envelopes')
        .set({ provider: 'docusign', sealed_pdf: Buffer.from('%PDF-1.7'), seal_error: null })
        .where('id', '=', berta.completed)
        .execute();
      expect(await seals()).toEqual(both({ state: 'docusign' }));
    });

    it('refuses an unknown filter, a search too long, no token and no permission level', async () => {
      const unknown = await t.app.inject({
        method: 'GET',
        url: '/backend/signature/envelopes?status=offen',
        headers: bearer(berater),
      });
      expect(unknown.statusCode).toBe(400);
      const long = await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes?q=${'x'.repeat(201)}`,
        headers: bearer(berater),
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().fields).toEqual({ q: ['Der Suchbegriff ist zu lang (max. 200 Zeichen).'] });
      expect((await t.app.inject({ method: 'GET', url: '/backend/signature/envelopes' })).statusCode).toBe(
        401,
      );
      const neu = await t.signIn('neu@demo.local');
      expect(
        (await t.app.inject({ method: 'GET', url: '/backend/signature/envelopes', headers: bearer(neu) }))
          .statusCode,
      ).toBe(403);
    });
  },
);
