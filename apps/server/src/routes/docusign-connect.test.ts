import { createHmac } from 'node:crypto';
import type { EnvelopeStatus } from '@vertragsgenerator/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../http/errors.js';
import { useSchemasAsDescription } from '../http/openapi.js';
import { docusignConnectRoutes } from './docusign-connect.js';

const KEY = 'connect-hmac-key-0123456789';
const URL_PATH = '/backend/signature/docusign/connect';
const KNOWN_ENVELOPE = '93be49ab-afa0-4adf-933c-f752070d71ec';

interface Recorded {
  externalId: string;
  status: EnvelopeStatus | null;
  providerStatus: string;
  at: Date;
}

const completed = (envelopeId = KNOWN_ENVELOPE) =>
  // Formatted as DocuSign sends it; the HMAC covers exactly these bytes.
  JSON.stringify(
    {
      event: 'envelope-completed',
      apiVersion: 'v2.1',
      generatedDateTime: '2026-11-21T10:15:30.1234567Z',
      data: { accountId: 'b41d7e66', envelopeId },
    },
    null,
    2,
  );
const signature = (body: string) => createHmac('sha256', KEY).update(body).digest('base64');

describe('DocuSign Connect webhook', () => {
  let app: FastifyInstance;
  let recorded: Recorded[];
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
        async recordProviderStatus(externalId, status, providerStatus, at) {
          recorded.push({ externalId, status, providerStatus, at });
          return externalId === KNOWN_ENVELOPE;
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
        at: new Date('2026-11-21T10:15:30.123Z'),
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
