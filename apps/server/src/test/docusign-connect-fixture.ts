import { createHmac, randomUUID } from 'node:crypto';
import type { RecipientInput } from '@vertragsgenerator/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../db/database.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import { installErrorHandler } from '../http/errors.js';
import { useSchemasAsDescription } from '../http/openapi.js';
import { docusignConnectRoutes } from '../routes/docusign-connect.js';
import type { EnvelopesRepository } from '../signature/envelopes-repository.js';

/** The Connect configuration's HMAC key the tests' webhook is set up with. */
export const CONNECT_KEY = 'connect-hmac-key-0123456789';
export const CONNECT_PATH = '/backend/signature/docusign/connect';

/** The signature header DocuSign computes over exactly these bytes with our key. */
export const connectSignature = (body: string) =>
  createHmac('sha256', CONNECT_KEY).update(body).digest('base64');

/** The Connect webhook on the envelopes of `envelopes`, as the server registers it with DocuSign configured. */
export async function connectApp(
  envelopes: EnvelopesRepository,
  onCompleted: () => void,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  useSchemasAsDescription(app);
  await app.register(docusignConnectRoutes, { hmacKey: CONNECT_KEY, envelopes, onCompleted });
  return app;
}

/** Posts a Connect message, signed, and expects DocuSign's delivery to be acknowledged. */
export async function deliverSigned(app: FastifyInstance, message: unknown): Promise<void> {
  const body = JSON.stringify(message);
  const response = await app.inject({
    method: 'POST',
    url: CONNECT_PATH,
    headers: { 'content-type': 'application/json', 'x-docusign-signature-1': connectSignature(body) },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A draft envelope created at DocuSign, as generateDocusign leaves it: our id and DocuSign's. */
export async function docusignEnvelope(
  db: Db,
  envelopes: EnvelopesRepository,
  options: { docKey?: string; recipients?: RecipientInput[] } = {},
): Promise<{ id: string; externalId: string }> {
  const docKey = options.docKey ?? 'de-wm-pp-rv';
  const documentId = await new DocumentsRepository(db).create({
    matchId: 'PL-10001',
    docKey,
    form: 'docusign',
    createdBy: 'berater@demo.local',
    fileName: 'Rahmenvertrag PL-10001.docx',
    dataList: {} as never,
    dataSha256: '0'.repeat(64),
  });
  const { id } = await envelopes.create({
    documentId,
    documentVersion: 1,
    documentSha256: '1'.repeat(64),
    matchId: 'PL-10001',
    customer: 'Muster GmbH',
    docKey,
    provider: 'docusign',
    subject: 'Rahmenvertrag zur Unterschrift',
    message: '',
    sender: { name: 'Berta Berater', email: 'berater@demo.local' },
    recipients: options.recipients ?? [
      { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@partner.example', routingOrder: 1 },
    ],
    createdBy: { email: 'berater@demo.local', ip: null, userAgent: null },
    requestKey: null,
  });
  const externalId = randomUUID();
  await envelopes.setExternalId(id, externalId);
  return { id, externalId };
}
