import { randomBytes } from 'node:crypto';
import { type EnvelopeStatus, SIGNING_TOKEN_HEADER } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../shared/sha256.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { DeletionRun } from './deletion-run.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { RetentionRules } from './retention-rules.js';

const DAY = 24 * 60 * 60_000;
const YEAR = 365 * DAY;
const quiet = { error() {}, warn() {}, info() {} } as never;
const ERASED = /^gelöscht am \d\d\.\d\d\.\d{4}$/;

/** What the deletion run leaves behind, one envelope each, with the one person it names. */
const STATES = {
  'lapsed draft': { status: 'created', age: 100 * DAY, email: 'entwurf@kunde.example' },
  'lapsed expired envelope': { status: 'sent', age: 250 * DAY, email: 'abgelaufen@kunde.example' },
  'declined envelope without files': { status: 'declined', age: 200 * DAY, email: 'abgelehnt@kunde.example' },
  'completed contract without files': { status: 'completed', age: 11 * YEAR, email: 'vertrag@kunde.example' },
} satisfies Record<string, { status: EnvelopeStatus; age: number; email: string }>;
type State = keyof typeof STATES;

interface Arranged {
  envelopeId: string;
  recipientId: string;
  token: string;
}

type Action = 'void' | 'renew-link' | 'remind' | 'signing link' | 'export' | 'erase';

/** Each later action on each state: it works, or it answers in German what is the matter and what to do. */
const SWEEP: [State, Action, number, string | null, RegExp][] = [
  ['lapsed draft', 'void', 409, 'envelope_lapsed', /verfallen.*erzeuge das Dokument neu.*Personendaten/],
  ['lapsed draft', 'renew-link', 409, 'envelope_lapsed', /verfallen.*Personendaten/],
  ['lapsed draft', 'remind', 409, 'envelope_lapsed', /verfallen.*Personendaten/],
  ['lapsed expired envelope', 'void', 409, 'envelope_lapsed', /verfallen.*Personendaten/],
  ['lapsed expired envelope', 'renew-link', 409, 'envelope_lapsed', /verfallen.*Personendaten/],
  ['lapsed expired envelope', 'remind', 409, 'envelope_lapsed', /verfallen.*Personendaten/],
  [
    'lapsed expired envelope',
    'signing link',
    409,
    'envelope_closed',
    /nicht mehr unterschrieben.*wende dich an den Absender/,
  ],
  ['declined envelope without files', 'void', 410, 'document_deleted', /Aufbewahrungsfrist gelöscht/],
  ['declined envelope without files', 'signing link', 409, 'envelope_closed', /abgelehnt/],
  ['completed contract without files', 'remind', 410, 'document_deleted', /Aufbewahrungsfrist gelöscht/],
  [
    'completed contract without files',
    'signing link',
    409,
    'envelope_closed',
    /bereits von allen unterschrieben/,
  ],
  ...(Object.keys(STATES) as State[]).flatMap((state): [State, Action, number, null, RegExp][] => [
    [state, 'export', 201, null, /./],
    [state, 'erase', 200, null, /./],
  ]),
];

describe.each(testDatabases())(
  'what the deletion run leaves, and every later action, on $name',
  (database) => {
    let db: Db;
    let t: TestApp;
    let admin: string;
    let legal: string;
    const START = new Date();
    const arranged = new Map<State, Arranged>();
    let lostDelivery: string;

    beforeAll(async () => {
      db = await database.open();
      t = await createTestApp(db, { demoStaff: true });
      admin = await t.signIn('ops@demo.local');
      legal = await t.signIn('legal@demo.local');
      let n = 90;
      for (const [state, { status, age, email }] of Object.entries(STATES) as [
        State,
        (typeof STATES)[State],
      ][]) {
        const matchId = `PL-${++n}`;
        const at = new Date(START.getTime() - age);
        const envelopeId = await storeEnvelope(db, {
          documentId: await storeDocument(db, { matchId, createdAt: at }),
          matchId,
          status,
          createdAt: at,
          completedAt: status === 'completed' ? at : null,
          recipients: [
            {
              name: `Kunde ${n}`,
              email,
              role: 'Kunde',
              status: status === 'created' ? 'waiting' : status === 'declined' ? 'declined' : undefined,
              tokenExpiresAt: status === 'sent' ? new Date(at.getTime() + 14 * DAY) : null,
            },
          ],
        });
        const token = randomBytes(32).toString('base64url');
        const { id: recipientId } = await db
          .updateTable('envelope_recipients')
          .set({ token_sha256: sha256Hex(token) })
          .where('envelope_id', '=', envelopeId)
          .returning('id')
          .executeTakeFirstOrThrow();
        arranged.set(state, { envelopeId, recipientId, token });
      }
      // A webhook delivery of the expired envelope, delivered long before its rule deleted it.
      const endpoint = await db
        .insertInto('webhook_endpoints')
        .values({
          url: 'https://crm.example/hooks',
          events: ['envelope.expired'],
          secret: 'whsec_x',
          created_by: 'ops@demo.local',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const event = await db
        .insertInto('webhook_events')
        .values({
          type: 'envelope.expired',
          payload: JSON.stringify({ data: { matchId: 'PL-92' } }),
          created_at: new Date(START.getTime() - 180 * DAY),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const deliveredAt = new Date(START.getTime() - 180 * DAY);
      const delivery = await db
        .insertInto('webhook_deliveries')
        .values({
          event_id: event.id,
          endpoint_id: endpoint.id,
          ordering_key: `envelope:${arranged.get('lapsed expired envelope')?.envelopeId}`,
          created_at: deliveredAt,
          next_attempt_at: deliveredAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'delivered', delivered_at: deliveredAt })
        .where('id', '=', delivery.id)
        .execute();
      lostDelivery = String(delivery.id);

      const audit = new AuditLog(db);
      const counts = await new DeletionRun({
        db,
        audit,
        rules: new RetentionRules(db, audit, () => START),
        log: quiet,
        now: () => START,
      }).run();
      expect(counts).toMatchObject({
        envelope_drafts: 1,
        ended_envelopes: 2,
        completed_contracts: 1,
        webhook_deliveries: 1,
      });
    });
    afterAll(async () => {
      await t.app.close();
      await db.destroy();
    });

    const post = (url: string, payload: object, token: string) =>
      t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

    function act(action: Action, state: State) {
      const { envelopeId, recipientId, token } = arranged.get(state) as Arranged;
      const envelope = `/backend/signature/envelopes/${envelopeId}`;
      switch (action) {
        case 'void':
          return post(`${envelope}/void`, { reason: '' }, legal);
        case 'renew-link':
        case 'remind':
          return post(`${envelope}/recipients/${recipientId}/${action}`, {}, legal);
        case 'signing link':
          return t.app.inject({
            method: 'GET',
            url: '/backend/signing',
            headers: { [SIGNING_TOKEN_HEADER]: token },
          });
        case 'export':
          return post('/backend/admin/person-data/exports', { query: STATES[state].email }, admin);
        case 'erase':
          return post(
            '/backend/admin/person-data/erase',
            { email: STATES[state].email, confirm: true },
            admin,
          );
      }
    }

    it('ends the draft and the expired envelope, and leaves the others as they ended', async () => {
      const statuses = await db
        .selectFrom('envelopes')
        .select(['id', 'status'])
        .where(
          'id',
          'in',
          [...arranged.values()].map((a) => a.envelopeId),
        )
        .execute();
      const of = (state: State) => statuses.find((s) => s.id === arranged.get(state)?.envelopeId)?.status;
      expect(of('lapsed draft')).toBe('lapsed');
      expect(of('lapsed expired envelope')).toBe('lapsed');
      expect(of('declined envelope without files')).toBe('declined');
      expect(of('completed contract without files')).toBe('completed');
    });

    it.each(SWEEP)('%s × %s: %i', async (state, action, status, error, message) => {
      const response = await act(action, state);
      expect(response.statusCode, response.body).toBe(status);
      if (status >= 400) {
        expect(response.json()).toMatchObject({ error, message: expect.stringMatching(message) });
      }
      if (action === 'erase') {
        const recipient = await db
          .selectFrom('envelope_recipients')
          .select(['name', 'email'])
          .where('id', '=', arranged.get(state)?.recipientId as string)
          .executeTakeFirstOrThrow();
        expect(recipient).toEqual({
          name: expect.stringMatching(ERASED),
          email: expect.stringMatching(ERASED),
        });
        const found = await post('/backend/admin/person-data/search', { query: STATES[state].email }, admin);
        expect(new Set(found.json().hits.map((h: { source: string }) => h.source))).toEqual(
          new Set(['audit']),
        );
      }
    });

    it('answers the resend of a webhook delivery its rule deleted in German', async () => {
      const response = await post(`/backend/admin/webhooks/deliveries/${lostDelivery}/resend`, {}, admin);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().message).toMatch(/Zustellung gibt es nicht/);
    });
  },
);
