import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDocusignClient } from '../../signature/docusign/docusign-client.js';
import { SignatureProviderError } from '../../signature/signature-provider.js';
import { type DocusignFake, startDocusignFake } from '../docusign-fake.js';
import { docxFixture, paragraph } from '../docx-fixture.js';
import { connectMessage } from './connect-message.js';
import { docusignApi, type RestRequest } from './docusign-api.js';

const ACCOUNT = 'b41d7e66-0000-4000-8000-account';
const ENVELOPES = `/v2.1/accounts/${ACCOUNT}/envelopes`;

/** A draft envelope as DocuSign's documentation writes one: a document and a signer on an anchor. */
const draft = {
  status: 'created',
  emailSubject: 'Rahmenvertrag zur Unterschrift',
  documents: [
    {
      documentId: '1',
      name: 'Vertrag.docx',
      fileExtension: 'docx',
      documentBase64: docxFixture({ body: [paragraph('Unterschrift: /sig1/')] }).toString('base64'),
    },
  ],
  recipients: {
    signers: [
      {
        recipientId: '1',
        routingOrder: '1',
        name: 'Erika Kundin',
        email: 'erika@kunde.example',
        tabs: {
          signHereTabs: [
            {
              anchorString: '/sig1/',
              anchorUnits: 'pixels',
              anchorXOffset: '0',
              anchorYOffset: '-30',
              anchorIgnoreIfNotPresent: 'false',
            },
          ],
        },
      },
    ],
  },
};

const post = (path: string, body: unknown): RestRequest => ({
  method: 'POST',
  path,
  query: new URLSearchParams(),
  contentType: 'application/json',
  accept: 'application/json',
  body,
});

describe('DocuSign API description', () => {
  const api = docusignApi();

  it('accepts a draft envelope as DocuSign defines it', () => {
    expect(api.checkRequest(post(ENVELOPES, draft))).toEqual({
      operationId: 'Envelopes_PostEnvelopes',
      problems: [],
    });
  });

  it('refuses a property DocuSign does not define, at any depth', () => {
    const signer = draft.recipients.signers[0];
    const misspelt = {
      ...draft,
      emailSubjekt: 'Tippfehler',
      recipients: {
        signers: [{ ...signer, tabs: { signHereTabs: [{ anchorString: '/sig1/', anchorOffsetY: '-30' }] } }],
      },
    };

    expect(api.checkRequest(post(ENVELOPES, misspelt)).problems).toEqual([
      'body: property emailSubjekt is not defined by DocuSign',
      'body/recipients/signers/0/tabs/signHereTabs/0: property anchorOffsetY is not defined by DocuSign',
    ]);
  });

  it('refuses a value of the wrong type, an unknown operation, query parameter or media type', () => {
    expect(api.checkRequest(post(ENVELOPES, { ...draft, documents: {} })).problems).toEqual([
      'body/documents must be array',
    ]);
    expect(api.checkRequest({ ...post(ENVELOPES, draft), method: 'PATCH' }).problems).toEqual([
      `PATCH is not defined for ${ENVELOPES}`,
    ]);
    expect(api.checkRequest(post(`${ENVELOPES}/e1/views/signer`, {})).problems).toEqual([
      `no operation is defined for ${ENVELOPES}/e1/views/signer`,
    ]);
    const combined: RestRequest = {
      method: 'GET',
      path: `${ENVELOPES}/e1/documents/combined`,
      query: new URLSearchParams({ certificate: 'true', watermark: 'false', zertifikat: 'ja' }),
      contentType: undefined,
      accept: 'application/json',
      body: undefined,
    };
    expect(api.checkRequest(combined).problems).toEqual([
      'query parameter zertifikat is not defined',
      'Accept application/json takes none of application/pdf',
    ]);
    expect(api.checkRequest({ ...post(ENVELOPES, draft), contentType: 'text/plain' }).problems).toEqual([
      'Content-Type text/plain is not one of application/json, application/xml',
    ]);
  });

  it('checks the envelope summary of a Connect message', () => {
    expect(api.checkDefinition('envelope', { envelopeId: 'e1', status: 'completed' })).toEqual([]);
    expect(api.checkDefinition('envelope', { envelopeId: 'e1', state: 'completed' })).toEqual([
      'envelope: property state is not defined by DocuSign',
    ]);
    expect(
      connectMessage('envelope-voided', { envelopeId: 'e1', generatedDateTime: '2026-11-21T10:00:00Z' }),
    ).toMatchObject({
      data: { envelopeSummary: { status: 'voided', voidedDateTime: '2026-11-21T10:00:00Z' } },
    });
  });
});

describe('the DocuSign fake holding requests to the description', () => {
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const ids = { integrationKey: 'ik-test', userId: 'user-test', accountId: ACCOUNT };
  let fake: DocusignFake;

  beforeEach(async () => {
    fake = await startDocusignFake({ ...ids, publicKey: keys.publicKey });
  });
  afterEach(() => fake.close());

  const client = () =>
    createDocusignClient(
      {
        kind: 'docusign',
        linkValidDays: 14,
        reminderEveryDays: 3,
        ...ids,
        privateKey: keys.privateKey,
        authUrl: fake.authUrl,
        basePath: fake.basePath,
        connectHmacKey: undefined,
        templates: {},
      },
      { retryDelaysMs: [] },
    );
  const summary = z.object({ envelopeId: z.string() });

  it('refuses an envelope with a property DocuSign does not define, as DocuSign refuses a bad request', async () => {
    const refused = await client()
      .post('/envelopes', { ...draft, emailSubjekt: 'Tippfehler' }, summary, { idempotent: false })
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    expect(refused).toBeInstanceOf(SignatureProviderError);
    expect((refused as SignatureProviderError).message).toContain('INVALID_REQUEST_BODY');
    expect((refused as SignatureProviderError).message).toContain('emailSubjekt');
    expect(fake.envelopes.size).toBe(0);
    expect(fake.violations).toEqual([
      `POST /restapi${ENVELOPES}: body: property emailSubjekt is not defined by DocuSign`,
    ]);
    // Provoked on purpose: close() would fail on it.
    fake.violations.length = 0;
  });

  it('creates the same envelope without the unknown property', async () => {
    const created = await client().post('/envelopes', draft, summary, { idempotent: false });

    expect(fake.envelopes.has(created.envelopeId)).toBe(true);
    expect(fake.violations).toEqual([]);
  });
});
