import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { installErrorHandler } from '../http/errors.js';
import { useSchemasAsDescription } from '../http/openapi.js';
import type { ProductEvent } from '../shared/product-events.js';
import { type ProviderReport, STATUS_KEPT } from '../signature/docusign/connect-events.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { testDatabases } from '../test/databases.js';
import { connectMessage } from '../test/docusign-api/connect-message.js';
import {
  CONNECT_KEY,
  CONNECT_PATH,
  connectApp,
  connectSignature,
  docusignEnvelope as createDocusignEnvelope,
  deliverSigned,
} from '../test/docusign-connect-fixture.js';
import { docusignConnectRoutes } from './docusign-connect.js';

const KEY = CONNECT_KEY;
const URL_PATH = CONNECT_PATH;
const KNOWN_ENVELOPE = '93be49ab-afa0-4adf-933c-f752070d71ec';

const completed = (envelopeId = KNOWN_ENVELOPE) =>
  // Formatted as DocuSign sends it; the HMAC covers exactly these bytes.
  JSON.stringify(
    connectMessage('envelope-completed', { envelopeId, generatedDateTime: '2026-11-21T10:15:30.1234567Z' }),
    null,
    2,
  );
const signature = connectSignature;

describe('DocuSign Connect webhook', () => {
  let app: FastifyInstance;
  let recorded: ProviderReport[];
  let completions: number[];
  let warnings: string[];

  async function start(hmacKey: string | undefined) {
    recorded = [];
    completions = [];
    warnings = [];
    app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => warnings.push(line) } } });
    installErrorHandler(app);
    useSchemasAsDescription(app);
    await app.register(docusignConnectRoutes, {
      hmacKey,
      envelopes: {
        async recordProviderStatus(report) {
          recorded.push(report);
          return report.externalId === KNOWN_ENVELOPE ? 'moved' : 'unknown';
        },
      },
      onCompleted: () => completions.push(1),
    });
    // Another route of the same app still gets parsed JSON: the raw-body parser stays in the plugin.
    app.post('/elsewhere', async (request) => ({ got: request.body }));
  }
  afterEach(() => app.close());

  const post = (body: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      payload: body,
    });

  it('records the status of a correctly signed event', async () => {
    await start(KEY);
    const body = completed();

    const response = await post(body, { 'x-docusign-signature-1': signature(body) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(recorded).toEqual([
      {
        externalId: KNOWN_ENVELOPE,
        status: 'completed',
        providerStatus: 'completed',
        recipientId: null,
        at: new Date('2026-11-21T10:15:30.123Z'),
        signerRoles: null,
      },
    ]);
    // Completed: the combined document is to be fetched.
    expect(completions).toHaveLength(1);
  });

  it('refuses a body changed after signing', async () => {
    await start(KEY);
    const body = completed();

    const response = await post(body.replace('completed', 'voided'), {
      'x-docusign-signature-1': signature(body),
    });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_signature' });
    expect(recorded).toEqual([]);
  });

  it('refuses an unsigned message', async () => {
    await start(KEY);

    const response = await post(completed());

    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_signature');
    expect(response.json().message).toEqual(expect.any(String));
    expect(recorded).toEqual([]);
  });

  it('is not there without a configured key, however the message is signed', async () => {
    await start(undefined);
    const body = completed();

    const response = await post(body, { 'x-docusign-signature-1': signature(body) });

    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('not_found');
    expect(recorded).toEqual([]);
  });

  it('answers 400 to a signed message that is no Connect event', async () => {
    await start(KEY);
    for (const body of ['{"event":"ping"}', 'not json']) {
      const response = await post(body, { 'x-docusign-signature-1': signature(body) });
      expect(response.statusCode).toBe(400);
    }
    expect(recorded).toEqual([]);
  });

  it('acknowledges an unknown envelope, so DocuSign stops retrying, and logs it', async () => {
    await start(KEY);
    const body = completed('00000000-0000-0000-0000-00000000beef');

    const response = await post(body, { 'x-docusign-signature-1': signature(body) });

    expect(response.statusCode).toBe(200);
    expect(recorded).toHaveLength(1);
    expect(completions).toEqual([]);
    expect(warnings.join('')).toContain('00000000-0000-0000-0000-00000000beef');
  });

  it('leaves JSON parsing of other routes alone', async () => {
    await start(KEY);

    const response = await app.inject({ method: 'POST', url: '/elsewhere', payload: { a: 1 } });

    expect(response.json()).toEqual({ got: { a: 1 } });
  });
});

describe.each(testDatabases())(
  'DocuSign Connect events delivered late and out of order ($name)',
  (database) => {
    let db: Db;
    let app: FastifyInstance;
    let envelopes: EnvelopesRepository;
    let completions: number;
    /** What other systems were told (webhooks, the CRM's write-back), in order. */
    const told: ProductEvent[] = [];

    beforeAll(async () => {
      db = await database.open();
      envelopes = new EnvelopesRepository(db, { record: async (event) => void told.push(event) });
      app = await connectApp(envelopes, () => {
        completions++;
      });
    });
    afterAll(async () => {
      await app.close();
      await db.destroy();
    });

    /** A draft envelope sent through DocuSign, as generateDocusign leaves it. */
    async function docusignEnvelope(): Promise<{ id: string; externalId: string }> {
      completions = 0;
      told.length = 0;
      return createDocusignEnvelope(db, envelopes);
    }

    /** Delivers one Connect message, signed, and expects DocuSign's delivery to be acknowledged. */
    const deliver = (
      event: string,
      envelopeId: string,
      generatedDateTime: string,
      options: { recipientId?: string; envelopeStatus?: string } = {},
    ) => deliverSigned(app, connectMessage(event, { envelopeId, generatedDateTime, ...options }));

    const state = (id: string) =>
      db
        .selectFrom('envelopes')
        .select(['status', 'provider_status', 'completed_at', 'seal_due_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    /**
     * What the envelope's history shows of DocuSign's events, in arrival order; not what the server
     * concludes from them (these `sent` list no recipients: whether the company countersigns is unknown).
     */
    const reported = async (id: string) =>
      ((await envelopes.view(id, false))?.events ?? [])
        .filter((event) => event.type === 'provider_status' && event.detail?.startsWith('DocuSign: '))
        .map((event) => event.detail);

    it('moves forward through DocuSign’s statuses delivered in order', async () => {
      const { id, externalId } = await docusignEnvelope();

      await deliver('envelope-sent', externalId, '2026-11-21T10:00:00.0000000Z');
      expect(await state(id)).toMatchObject({ status: 'sent', provider_status: 'sent' });
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');
      expect(await state(id)).toMatchObject({ status: 'sent', provider_status: 'delivered' });
      await deliver('envelope-completed', externalId, '2026-11-21T10:10:00.0000000Z');

      expect(await state(id)).toMatchObject({
        status: 'completed',
        provider_status: 'completed',
        completed_at: new Date('2026-11-21T10:10:00Z'),
      });
      expect(await reported(id)).toEqual([
        'DocuSign: sent (2026-11-21T10:00:00.000Z)',
        'DocuSign: delivered (2026-11-21T10:05:00.000Z)',
        'DocuSign: completed (2026-11-21T10:10:00.000Z)',
      ]);
      expect(completions).toBe(1);
    });

    it('keeps a completed envelope completed when an older `delivered` arrives late, and records it', async () => {
      const { id, externalId } = await docusignEnvelope();
      await deliver('envelope-completed', externalId, '2026-11-21T10:10:00.0000000Z');

      // Generated before the completion, delivered after it (a Connect retry).
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');

      expect(await state(id)).toMatchObject({
        status: 'completed',
        provider_status: 'completed',
        completed_at: new Date('2026-11-21T10:10:00Z'),
      });
      expect(await reported(id)).toEqual([
        'DocuSign: completed (2026-11-21T10:10:00.000Z)',
        `DocuSign: delivered (2026-11-21T10:05:00.000Z) ${STATUS_KEPT}`,
      ]);
    });

    it('keeps a declined envelope declined when a late `sent` arrives', async () => {
      const { id, externalId } = await docusignEnvelope();
      await deliver('envelope-declined', externalId, '2026-11-21T11:00:00.0000000Z');

      await deliver('envelope-sent', externalId, '2026-11-21T10:00:00.0000000Z');

      expect(await state(id)).toMatchObject({ status: 'declined', provider_status: 'declined' });
      expect(await reported(id)).toHaveLength(2);
      expect((await reported(id))[1]).toContain(STATUS_KEPT);
    });

    it('does not go back from `delivered` to `sent`', async () => {
      const { id, externalId } = await docusignEnvelope();
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');

      await deliver('envelope-sent', externalId, '2026-11-21T10:00:00.0000000Z');

      expect(await state(id)).toMatchObject({ status: 'sent', provider_status: 'delivered' });
    });

    it('lets a late recipient event undo nothing', async () => {
      const { id, externalId } = await docusignEnvelope();
      await deliver('envelope-completed', externalId, '2026-11-21T10:10:00.0000000Z');

      await deliver('recipient-delivered', externalId, '2026-11-21T10:02:00.0000000Z', {
        recipientId: '1',
        envelopeStatus: 'sent',
      });

      expect(await state(id)).toMatchObject({ status: 'completed', provider_status: 'completed' });
      expect(await reported(id)).toEqual([
        'DocuSign: completed (2026-11-21T10:10:00.000Z)',
        'DocuSign: recipient-delivered, Empfänger 1 (2026-11-21T10:02:00.000Z)',
      ]);
    });

    it('records the same event delivered twice once', async () => {
      const { id, externalId } = await docusignEnvelope();
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');
      await deliver('envelope-completed', externalId, '2026-11-21T10:10:00.0000000Z');
      const before = await state(id);

      await deliver('envelope-completed', externalId, '2026-11-21T10:10:00.0000000Z');
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');

      expect(await state(id)).toEqual(before);
      expect(await reported(id)).toEqual([
        'DocuSign: delivered (2026-11-21T10:05:00.000Z)',
        'DocuSign: completed (2026-11-21T10:10:00.000Z)',
      ]);
      // The repeated completion changed nothing, so the combined document is not looked for again.
      expect(completions).toBe(1);
    });

    it('ends completed whatever order concurrent deliveries take', async () => {
      const { id, externalId } = await docusignEnvelope();
      const events: [string, string][] = [
        ['envelope-sent', '2026-11-21T10:00:00.0000000Z'],
        ['envelope-delivered', '2026-11-21T10:05:00.0000000Z'],
        ['envelope-completed', '2026-11-21T10:10:00.0000000Z'],
      ];

      // Each event twice, all at once: the database decides the order they are recorded in.
      await Promise.all(
        [...events, ...events].reverse().map(([event, at]) => deliver(event, externalId, at)),
      );

      expect(await state(id)).toMatchObject({ status: 'completed', provider_status: 'completed' });
      const details = await reported(id);
      expect(details).toHaveLength(3);
      for (const [event, at] of events) {
        const prefix = `DocuSign: ${event.slice('envelope-'.length)} (${new Date(at).toISOString()})`;
        expect(details.filter((detail) => detail?.startsWith(prefix))).toHaveLength(1);
      }
    });

    it('tells other systems what DocuSign reports as built-in signing would: sent, each signature, declined, once', async () => {
      const { id, externalId } = await docusignEnvelope();
      const [signer] = (await envelopes.view(id, false))?.recipients ?? [];

      await deliver('envelope-sent', externalId, '2026-11-21T10:00:00.0000000Z');
      await deliver('envelope-delivered', externalId, '2026-11-21T10:05:00.0000000Z');
      await deliver('recipient-completed', externalId, '2026-11-21T10:07:00.0000000Z', { recipientId: '1' });
      await deliver('recipient-completed', externalId, '2026-11-21T10:07:00.0000000Z', { recipientId: '1' });
      await deliver('envelope-declined', externalId, '2026-11-21T10:09:00.0000000Z');
      // Late and out of order: a `sent` after the decline moves nothing and is told nothing.
      await deliver('envelope-sent', externalId, '2026-11-21T09:59:00.0000000Z');

      // Every history entry is offered too: the creation, and DocuSign's reports as `provider_status`,
      // which no webhook is sent for.
      const facts = told.filter(
        (event) => !('type' in event && ['created', 'provider_status'].includes(event.type)),
      );
      expect(facts.map((event) => [event.kind, 'type' in event ? event.type : null])).toEqual([
        ['envelope.event', 'sent'],
        ['envelope.event', 'signed'],
        ['envelope.event', 'declined'],
      ]);
      expect(facts[1]).toMatchObject({ envelopeId: id, recipientId: signer?.id });
    });
  },
);
