import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import {
  CATALOGUE,
  type CatalogueEntry,
  type RecipientInput,
  SIGNATURE_ANCHORS,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DocumentEnvelope,
  type DocusignFake,
  startDocusignFake,
  type TemplateEnvelope,
} from '../../test/docusign-fake.js';
import { docxFixture, paragraph } from '../../test/docx-fixture.js';
import { type EnvelopeDraft, SignatureProviderError } from '../signature-provider.js';
import type { DocusignClientOptions, DocusignConfig } from './docusign-client.js';
import { createDocusignProvider } from './docusign-provider.js';

const rsaKeyPair = (type: 'pkcs8' | 'pkcs1') =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type, format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
const keys = rsaKeyPair('pkcs8');

const IDS = {
  integrationKey: '3c1e8a52-0000-4000-8000-integration',
  userId: '7f2b9c10-0000-4000-8000-impersonated',
  accountId: 'b41d7e66-0000-4000-8000-account',
};

const entry = CATALOGUE.values().next().value as CatalogueEntry;

/** A document with every party's anchors, as the signature blocks of our templates render them. */
const allAnchors = docxFixture({
  body: [
    paragraph('Rahmenvertrag'),
    ...Object.values(SIGNATURE_ANCHORS).flatMap((anchors) => [
      paragraph('Ort, Datum: ', anchors.ankerDatum, '______'),
      paragraph(anchors.ankerSignatur),
      paragraph('Name: ', anchors.ankerName, 'Erika Muster'),
    ]),
  ],
});

const customers: RecipientInput[] = [
  { role: 'Kunde', name: 'Erika Kundin', email: 'erika@kunde.example', routingOrder: 1 },
  { role: 'Kunde2', name: 'Karl Kunde', email: 'karl@kunde.example', routingOrder: 2 },
  { role: 'CC', name: 'Claudia Copy', email: 'claudia@firma.example', routingOrder: 2 },
];

function draft(overrides: Partial<EnvelopeDraft> = {}): EnvelopeDraft {
  return {
    id: '0b0f5a3e-1111-4111-8111-000000000001',
    entry,
    matchId: 'PL-10001',
    document: { fileName: 'Rahmenvertrag PL-10001.docx', content: allAnchors, sha256: 'not checked' },
    data: {
      matchId: 'PL-10001',
      kunde: 'Muster GmbH',
      startdatum: '01.12.2026',
      mitKunde: true,
      unterschriften: [],
    } as unknown as TemplateData,
    sender: { name: 'Berta Beraterin', email: 'berta@firma.example' },
    recipients: customers,
    subject: 'Rahmenvertrag zur Unterschrift',
    message: 'Hallo, bitte unterschreibe den Vertrag.',
    ...overrides,
  };
}

describe('DocuSign provider', () => {
  let fake: DocusignFake;
  let waits: number[];

  beforeEach(async () => {
    fake = await startDocusignFake({ ...IDS, publicKey: keys.publicKey });
    waits = [];
  });
  afterEach(async () => {
    vi.useRealTimers();
    await fake.close();
  });

  function provider(config: Partial<DocusignConfig> = {}, options: DocusignClientOptions = {}) {
    return createDocusignProvider(
      {
        kind: 'docusign',
        linkValidDays: 14,
        reminderEveryDays: 3,
        ...IDS,
        privateKey: keys.privateKey,
        authUrl: fake.authUrl,
        basePath: undefined,
        connectHmacKey: undefined,
        templates: {},
        ...config,
      },
      {
        timeoutMs: 2_000,
        sleep: async (ms) => {
          waits.push(ms);
        },
        ...options,
      },
    );
  }

  const requestsTo = (endpoint: string) => fake.requests.filter((r) => r.endpoint === endpoint);

  async function failure(promise: Promise<unknown>): Promise<SignatureProviderError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SignatureProviderError);
    return error as SignatureProviderError;
  }

  describe('the envelope', () => {
    it('uploads our document as a draft with each signer on their anchors and CC as a copy', async () => {
      const { externalId } = await provider().createEnvelope(draft());

      const envelope = fake.envelopes.get(externalId) as DocumentEnvelope;
      expect(envelope).toBeDefined();
      expect(envelope.status).toBe('created');
      expect(envelope.emailSubject).toBe('Rahmenvertrag zur Unterschrift');
      expect(envelope.emailBlurb).toBe('Hallo, bitte unterschreibe den Vertrag.');
      expect(envelope.documents).toHaveLength(1);
      expect(envelope.documents[0]).toMatchObject({
        name: 'Rahmenvertrag PL-10001.docx',
        fileExtension: 'docx',
      });
      expect(Buffer.from(envelope.documents[0]?.documentBase64 ?? '', 'base64').equals(allAnchors)).toBe(
        true,
      );
      expect(envelope).not.toHaveProperty('templateId');

      const anchorsOf = (tabs: { anchorString: string }[] | undefined) => tabs?.map((t) => t.anchorString);
      expect(
        envelope.recipients.signers.map((s) => ({
          recipientId: s.recipientId,
          routingOrder: s.routingOrder,
          name: s.name,
          email: s.email,
          signHere: anchorsOf(s.tabs.signHereTabs),
          dateSigned: anchorsOf(s.tabs.dateSignedTabs),
          fullName: anchorsOf(s.tabs.fullNameTabs),
        })),
      ).toEqual([
        {
          recipientId: '1',
          routingOrder: '1',
          name: 'Erika Kundin',
          email: 'erika@kunde.example',
          signHere: ['/sig_kunde1/'],
          dateSigned: ['/dat_kunde1/'],
          fullName: ['/nam_kunde1/'],
        },
        {
          recipientId: '2',
          routingOrder: '2',
          name: 'Karl Kunde',
          email: 'karl@kunde.example',
          signHere: ['/sig_kunde2/'],
          dateSigned: ['/dat_kunde2/'],
          fullName: ['/nam_kunde2/'],
        },
      ]);
      for (const tab of envelope.recipients.signers.flatMap((s) => s.tabs.signHereTabs)) {
        expect(tab).toMatchObject({ anchorUnits: 'pixels', anchorIgnoreIfNotPresent: 'false' });
      }
      expect(envelope.recipients.carbonCopies).toEqual([
        { recipientId: '3', routingOrder: '2', name: 'Claudia Copy', email: 'claudia@firma.example' },
      ]);
    });

    it("places the company's countersigner last, on the company block's anchors", async () => {
      const { externalId } = await provider().createEnvelope(
        draft({
          recipients: [
            { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@pp.example', routingOrder: 1 },
            { role: 'Firma', name: 'Sabine Kroll', email: 'sabine@we.example', routingOrder: 2 },
            { role: 'CC', name: 'Claudia Copy', email: 'claudia@firma.example', routingOrder: 2 },
          ],
        }),
      );

      // The fake checked the request against DocuSign's published description.
      const envelope = fake.envelopes.get(externalId) as DocumentEnvelope;
      const countersigner = envelope.recipients.signers.find((s) => s.name === 'Sabine Kroll');
      expect(countersigner).toMatchObject({
        recipientId: '2',
        routingOrder: '2',
        email: 'sabine@we.example',
      });
      expect(countersigner?.tabs.signHereTabs.map((t) => t.anchorString)).toEqual(['/sig_firma/']);
      expect(countersigner?.tabs.dateSignedTabs?.map((t) => t.anchorString)).toEqual(['/dat_firma/']);
      expect(countersigner?.tabs.fullNameTabs?.map((t) => t.anchorString)).toEqual(['/nam_firma/']);
      expect(countersigner?.tabs.signHereTabs[0]).toMatchObject({ anchorIgnoreIfNotPresent: 'false' });
      expect(envelope.recipients.signers.map((s) => s.routingOrder)).toEqual(['1', '2']);
    });

    it('places a project partner on the project partner anchors only', async () => {
      const { externalId } = await provider().createEnvelope(
        draft({
          recipients: [
            { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@pp.example', routingOrder: 1 },
          ],
        }),
      );

      const envelope = fake.envelopes.get(externalId) as DocumentEnvelope;
      const anchors = envelope.recipients.signers.flatMap((s) => [
        ...s.tabs.signHereTabs,
        ...(s.tabs.dateSignedTabs ?? []),
        ...(s.tabs.fullNameTabs ?? []),
      ]);
      expect(anchors.map((t) => t.anchorString).sort()).toEqual(['/dat_pp/', '/nam_pp/', '/sig_pp/']);
      expect(envelope.recipients.carbonCopies ?? []).toEqual([]);
    });

    it('names the Absender as reply-to, since DocuSign sends as the integration user', async () => {
      const { externalId } = await provider().createEnvelope(draft());

      expect(fake.envelopes.get(externalId)?.emailSettings).toEqual({
        replyEmailAddressOverride: 'berta@firma.example',
        replyEmailNameOverride: 'Berta Beraterin',
      });
    });

    it('uses the DocuSign server template of a configured key, its text fields filled from our data', async () => {
      const { externalId } = await provider({ templates: { [entry.key]: 'tpl-4711' } }).createEnvelope(
        draft(),
      );

      const envelope = fake.envelopes.get(externalId) as TemplateEnvelope;
      expect(envelope.templateId).toBe('tpl-4711');
      expect(envelope).not.toHaveProperty('documents');
      expect(envelope).not.toHaveProperty('recipients');
      expect(envelope.status).toBe('created');
      expect(envelope.emailSettings?.replyEmailAddressOverride).toBe('berta@firma.example');
      const textTabs = [
        { tabLabel: 'matchId', value: 'PL-10001' },
        { tabLabel: 'kunde', value: 'Muster GmbH' },
        { tabLabel: 'startdatum', value: '01.12.2026' },
      ];
      expect(envelope.templateRoles).toEqual([
        {
          roleName: 'Kunde',
          name: 'Erika Kundin',
          email: 'erika@kunde.example',
          routingOrder: '1',
          tabs: { textTabs },
        },
        {
          roleName: 'Kunde2',
          name: 'Karl Kunde',
          email: 'karl@kunde.example',
          routingOrder: '2',
          tabs: { textTabs },
        },
        { roleName: 'CC', name: 'Claudia Copy', email: 'claudia@firma.example', routingOrder: '2' },
      ]);
    });

    it('refuses a document without the signature anchors instead of sending it unsigned', async () => {
      const withoutAnchors = docxFixture({ body: [paragraph('Ein Vertrag ohne Unterschriftsblock')] });

      const error = await failure(
        provider().createEnvelope(
          draft({ document: { fileName: 'x.docx', content: withoutAnchors, sha256: 'not checked' } }),
        ),
      );

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('Stelle für eine Unterschrift nicht');
      expect(error.message).toContain('/sig_kunde1/');
      expect(fake.envelopes.size).toBe(0);
    });
  });

  it('answers the sender view URL of the envelope, leading back to our page', async () => {
    const docusign = provider();
    const { externalId } = await docusign.createEnvelope(draft());

    const url = await docusign.senderViewUrl(
      { id: draft().id, externalId },
      'https://vertraege.firma.example/signatur/1',
    );

    expect(new URL(url).pathname).toBe(`/senderview/${externalId}`);
    expect(new URL(url).searchParams.get('returnUrl')).toBe('https://vertraege.firma.example/signatur/1');
    expect(requestsTo('senderView')).toHaveLength(1);
    expect(requestsTo('senderView')[0]?.body).toEqual({
      returnUrl: 'https://vertraege.firma.example/signatur/1',
    });
  });

  describe('sign-in with the JWT grant', () => {
    it('asserts integration key, user, audience host and scope, signed with RS256 for at most an hour', async () => {
      await provider().createEnvelope(draft());

      expect(requestsTo('token')).toHaveLength(1);
      const form = requestsTo('token')[0]?.body as { grant_type: string; assertion: string } | undefined;
      expect(form?.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      const assertion = form?.assertion ?? '';
      expect(decodeProtectedHeader(assertion).alg).toBe('RS256');
      const claims = decodeJwt(assertion);
      expect(claims).toMatchObject({
        iss: IDS.integrationKey,
        sub: IDS.userId,
        aud: new URL(fake.authUrl).host,
        scope: 'signature impersonation',
      });
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
      // The fake accepted it, having verified the signature with the public key.
      expect(fake.envelopes.size).toBe(1);
    });

    it('is refused for a key DocuSign does not know', async () => {
      const error = await failure(
        provider({ privateKey: rsaKeyPair('pkcs8').privateKey }).createEnvelope(draft()),
      );

      expect(error.retryable).toBe(false);
      expect(error.message).toBe(
        'Die Anmeldung bei DocuSign ist fehlgeschlagen (invalid_grant). Bitte wende dich an die Administration.',
      );
      expect(requestsTo('createEnvelope')).toHaveLength(0);
    });

    it('reads the PKCS#1 key file DocuSign hands out', async () => {
      const pkcs1 = rsaKeyPair('pkcs1');
      expect(pkcs1.privateKey).toContain('BEGIN RSA PRIVATE KEY');
      await fake.close();
      fake = await startDocusignFake({ ...IDS, publicKey: pkcs1.publicKey });

      await provider({ privateKey: pkcs1.privateKey, authUrl: fake.authUrl }).createEnvelope(draft());

      expect(fake.envelopes.size).toBe(1);
    });

    it('tells the user to ask the administrator when consent is missing', async () => {
      fake.failNext('token', { status: 400, body: { error: 'consent_required' } });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/nicht freigegeben: Die Zustimmung \(Consent\).*Administration/);
      expect(requestsTo('token')).toHaveLength(1);
    });

    it('keeps the token for later envelopes and renews it five minutes before it expires', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      const docusign = provider();

      await docusign.createEnvelope(draft());
      await docusign.createEnvelope(draft());
      expect(requestsTo('token')).toHaveLength(1);
      expect(requestsTo('userinfo')).toHaveLength(1);

      vi.setSystemTime(start + 54 * 60_000);
      await docusign.createEnvelope(draft());
      expect(requestsTo('token')).toHaveLength(1);

      vi.setSystemTime(start + 56 * 60_000);
      await docusign.createEnvelope(draft());
      expect(requestsTo('token')).toHaveLength(2);
      expect(fake.envelopes.size).toBe(4);
    });

    it('gets a fresh token once when DocuSign no longer accepts the cached one', async () => {
      const docusign = provider();
      await docusign.createEnvelope(draft());
      fake.revokeTokens();

      await docusign.createEnvelope(draft());

      expect(requestsTo('token')).toHaveLength(2);
      // The second envelope: refused with the revoked token, then created with the fresh one.
      const [first, refused, retried] = requestsTo('createEnvelope').map((r) => r.authorization);
      expect(refused).toBe(first);
      expect(retried).not.toBe(first);
      expect(retried).toMatch(/^Bearer /);
      expect(fake.envelopes.size).toBe(2);
    });

    it('gives up when a fresh token is refused as well', async () => {
      const refused = {
        status: 401,
        body: { errorCode: 'USER_AUTHENTICATION_FAILED', message: 'Invalid access token' },
      };
      fake.failNext('createEnvelope', refused, refused);

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('nicht freigegeben');
      expect(requestsTo('token')).toHaveLength(2);
      expect(requestsTo('createEnvelope')).toHaveLength(2);
    });

    it('finds the REST base of the configured account in userinfo, or uses the configured one', async () => {
      await provider().createEnvelope(draft());
      expect(requestsTo('userinfo')).toHaveLength(1);

      await provider({ basePath: fake.basePath }).createEnvelope(draft());
      expect(requestsTo('userinfo')).toHaveLength(1);
      expect(fake.envelopes.size).toBe(2);
    });

    it('names a user who does not belong to the configured account', async () => {
      const error = await failure(
        provider({ accountId: 'c0ffee00-0000-0000-0000-000000000000' }).createEnvelope(draft()),
      );

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('DOCUSIGN_ACCOUNT_ID');
    });
  });

  describe('failures', () => {
    it('retries 429 after its Retry-After and 500 after a backoff, then succeeds', async () => {
      fake.failNext('createEnvelope', { status: 429, retryAfter: '2' }, { status: 500 });

      const { externalId } = await provider().createEnvelope(draft());

      expect(waits).toEqual([2_000, 1_000]);
      expect(requestsTo('createEnvelope')).toHaveLength(3);
      expect([...fake.envelopes.keys()]).toEqual([externalId]);
    });

    it('gives up after three retries with a message to try again', async () => {
      fake.failNext('createEnvelope', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(true);
      expect(error.message).toBe(
        'DocuSign ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
      );
      expect(error.providerDetail).toContain('HTTP 503');
      expect(waits).toEqual([500, 1_000, 2_000]);
      expect(requestsTo('createEnvelope')).toHaveLength(4);
    });

    it('does not wait longer than a user would when DocuSign asks for it', async () => {
      fake.failNext('createEnvelope', { status: 429, retryAfter: '60' });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(true);
      expect(waits).toEqual([]);
      expect(requestsTo('createEnvelope')).toHaveLength(1);
    });

    it("names a refused e-mail address in German with DocuSign's words, without retrying", async () => {
      fake.failNext('createEnvelope', {
        status: 400,
        body: {
          errorCode: 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT',
          message: 'The email address for the recipient is invalid. The recipient Id follows.',
        },
      });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toBe(
        'DocuSign lehnt eine E-Mail-Adresse eines Empfängers ab: The email address for the recipient is invalid. The recipient Id follows.',
      );
      expect(error.providerDetail).toContain('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT');
      expect(requestsTo('createEnvelope')).toHaveLength(1);
    });

    it('reports an exhausted API limit as passing, without hammering DocuSign', async () => {
      fake.failNext('createEnvelope', {
        status: 400,
        body: {
          errorCode: 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED',
          message: 'The maximum number of hourly API invocations has been exceeded.',
        },
      });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(true);
      expect(error.message).toContain('Anfragelimit');
      expect(requestsTo('createEnvelope')).toHaveLength(1);
    });

    it('passes on any other refusal with its code', async () => {
      fake.failNext('createEnvelope', {
        status: 400,
        body: { errorCode: 'ENVELOPE_HAS_DUPLICATE_RECIPIENTS', message: 'Duplicate recipients.' },
      });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toBe(
        'DocuSign hat die Anfrage abgelehnt: ENVELOPE_HAS_DUPLICATE_RECIPIENTS – Duplicate recipients.',
      );
    });

    it('never creates a second envelope after a timeout, and tells the user to check DocuSign', async () => {
      fake.failNext('createEnvelope', 'hang');

      const error = await failure(provider({}, { timeoutMs: 300 }).createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('möglicherweise trotzdem angelegt');
      expect(requestsTo('createEnvelope')).toHaveLength(1);
      expect(fake.envelopes.size).toBe(1);
    });

    it('does not repeat a create answered by a gateway timeout (504) either', async () => {
      fake.failNext('createEnvelope', { status: 504 });

      const error = await failure(provider().createEnvelope(draft()));

      expect(error.retryable).toBe(false);
      expect(error.message).toContain('möglicherweise trotzdem angelegt');
      expect(requestsTo('createEnvelope')).toHaveLength(1);
    });

    it('retries a create whose connection was refused: nothing reached DocuSign', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });

      const error = await failure(
        provider({ basePath: `http://127.0.0.1:${closedPort}/restapi` }).createEnvelope(draft()),
      );

      expect(error.retryable).toBe(true);
      expect(error.providerDetail).toContain('ECONNREFUSED');
      expect(waits).toEqual([500, 1_000, 2_000]);
    });

    it('retries a sender view after a timeout: a second link is harmless', async () => {
      const docusign = provider({}, { timeoutMs: 300 });
      const { externalId } = await docusign.createEnvelope(draft());
      fake.failNext('senderView', 'hang');

      const url = await docusign.senderViewUrl(
        { id: draft().id, externalId },
        'https://vertraege.firma.example/',
      );

      expect(url).toContain(externalId);
      expect(requestsTo('senderView')).toHaveLength(2);
    });

    it('retries the token request after a server error', async () => {
      fake.failNext('token', { status: 500, body: { error: 'server_error' } });

      await provider().createEnvelope(draft());

      expect(requestsTo('token')).toHaveLength(2);
      expect(fake.envelopes.size).toBe(1);
    });
  });
  describe('the completed document', () => {
    it('fetches the combined document with its certificate as a PDF', async () => {
      const { externalId } = await provider().createEnvelope(draft());
      const pdf = await provider().completedDocument?.(externalId);
      expect(Buffer.from(pdf ?? new Uint8Array()).equals(fake.combinedDocument(externalId))).toBe(true);
      expect(requestsTo('combinedDocument')[0]?.url).toMatch(/\/documents\/combined\?certificate=true$/);
    });

    it('retries DocuSign failing for a moment, and names an envelope DocuSign no longer has', async () => {
      const { externalId } = await provider().createEnvelope(draft());
      fake.failNext('combinedDocument', { status: 503 });
      expect(await provider().completedDocument?.(externalId)).toBeDefined();
      expect(requestsTo('combinedDocument')).toHaveLength(2);
      const missing = await failure(
        provider().completedDocument?.('00000000-0000-4000-8000-00000000dead') ?? Promise.resolve(),
      );
      expect(missing.message).toMatch(/Den Umschlag gibt es bei DocuSign nicht mehr/);
    });

    it('refuses an answer that is not a PDF', async () => {
      const { externalId } = await provider().createEnvelope(draft());
      fake.failNext('combinedDocument', { status: 200, body: { html: '<p>Wartung</p>' } });
      const error = await failure(provider().completedDocument?.(externalId) ?? Promise.resolve());
      expect(error.message).toMatch(/DocuSign hat unerwartet geantwortet/);
    });
  });
});
