import { createPublicKey, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import { checkAgainstDescription } from './docusign-api/conformance.js';
import { docxText } from './docx-text.js';

/**
 * A local stand-in for the parts of DocuSign the provider uses, built from DocuSign's documentation:
 * the OAuth JWT grant (`/oauth/token`, `/oauth/userinfo`) and the eSignature REST API v2.1 calls to
 * create a draft envelope, its sender view and the combined document. Every REST request is held to
 * DocuSign's published API description first (docusign-api/), so each test through the fake checks
 * what the adapter sends; then the fake checks what DocuSign checks beyond it (the signed assertion,
 * the bearer token, required fields, anchors present in the document). It can be told to fail each
 * endpoint in each of the ways DocuSign fails.
 */

export type FakeEndpoint = 'token' | 'userinfo' | 'createEnvelope' | 'senderView' | 'combinedDocument';

/**
 * An answer in place of the normal one. `hang` is the worst case of a lost answer: the fake does the
 * work (an envelope is stored) but never answers, as when DocuSign finished after the client gave up.
 */
export type FakeFailure = { status: number; body?: unknown; retryAfter?: string } | 'hang';

export interface RecordedRequest {
  endpoint: FakeEndpoint;
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}

export interface DocusignFakeOptions {
  integrationKey: string;
  userId: string;
  accountId: string;
  /** PEM of the public half of the integration's RSA key pair. */
  publicKey: string;
  /** `expires_in` of issued access tokens; DocuSign's is 3600. */
  tokenLifetimeSeconds?: number;
}

export interface DocusignFake {
  /** The OAuth service, as DOCUSIGN_AUTH_URL. */
  authUrl: string;
  /** The REST base, as DOCUSIGN_BASE_PATH (also the `base_uri` userinfo gives + `/restapi`). */
  basePath: string;
  /** Every request in arrival order, failed ones included. */
  requests: RecordedRequest[];
  /**
   * What requests sent that DocuSign's API description does not allow (each was answered 400). A test
   * that provokes one on purpose empties the list: close() fails while it holds any, so that no test
   * passes on a refusal that came from the description rather than from what it meant to provoke.
   */
  violations: string[];
  /** Created envelopes by id: the envelope definitions as received. */
  envelopes: Map<string, EnvelopeDefinition>;
  /** The combined document (`documents/combined`) the fake hands out for an envelope: a PDF naming it. */
  combinedDocument(envelopeId: string): Buffer;
  /** Queues answers for the next requests to an endpoint, used up one per request. */
  failNext(endpoint: FakeEndpoint, ...failures: FakeFailure[]): void;
  /** Makes every issued access token invalid, as an expiry or a withdrawn consent does. */
  revokeTokens(): void;
  close(): Promise<void>;
}

const anchorTabSchema = z.object({
  anchorString: z.string().min(1),
  anchorUnits: z.enum(['pixels', 'inches', 'mms', 'cms']),
  anchorXOffset: z.string().regex(/^-?\d+(\.\d+)?$/),
  anchorYOffset: z.string().regex(/^-?\d+(\.\d+)?$/),
  anchorIgnoreIfNotPresent: z.enum(['true', 'false']),
});
const numberString = z.string().regex(/^[1-9]\d*$/);
const recipientSchema = z.object({
  recipientId: numberString,
  routingOrder: numberString,
  name: z.string().min(1).max(100),
  email: z.string().min(3).max(100),
});
const signerSchema = recipientSchema.extend({
  tabs: z.object({
    signHereTabs: z.array(anchorTabSchema).min(1),
    dateSignedTabs: z.array(anchorTabSchema).optional(),
    fullNameTabs: z.array(anchorTabSchema).optional(),
  }),
});
const envelopeCommon = z.object({
  // A draft for the sender view; `sent` for an approved envelope (Freigabe), created already sent.
  status: z.enum(['created', 'sent']),
  emailSubject: z.string().min(1),
  emailBlurb: z.string().max(10_000).optional(),
  emailSettings: z
    .object({
      replyEmailAddressOverride: z.string().min(3).max(100),
      replyEmailNameOverride: z.string().min(1).max(100),
    })
    .optional(),
});
const documentEnvelopeSchema = envelopeCommon.extend({
  documents: z
    .array(
      z.object({
        documentId: numberString,
        name: z.string().min(1),
        fileExtension: z.string().min(1),
        documentBase64: z.string().min(1),
      }),
    )
    .length(1),
  recipients: z.object({
    signers: z.array(signerSchema).min(1),
    carbonCopies: z.array(recipientSchema).optional(),
  }),
});
const templateEnvelopeSchema = envelopeCommon.extend({
  templateId: z.string().min(1),
  templateRoles: z
    .array(
      z.object({
        roleName: z.string().min(1),
        name: z.string().min(1).max(100),
        email: z.string().min(3).max(100),
        routingOrder: numberString,
        tabs: z
          .object({ textTabs: z.array(z.object({ tabLabel: z.string().min(1), value: z.string() })) })
          .optional(),
      }),
    )
    .min(1),
});
const envelopeDefinitionSchema = z.union([documentEnvelopeSchema, templateEnvelopeSchema]);
export type EnvelopeDefinition = z.infer<typeof envelopeDefinitionSchema>;
export type DocumentEnvelope = z.infer<typeof documentEnvelopeSchema>;
export type TemplateEnvelope = z.infer<typeof templateEnvelopeSchema>;

const tokenRequestSchema = z.object({
  grant_type: z.literal('urn:ietf:params:oauth:grant-type:jwt-bearer'),
  assertion: z.string().min(1),
});

export async function startDocusignFake(options: DocusignFakeOptions): Promise<DocusignFake> {
  const publicKey = createPublicKey(options.publicKey);
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const requests: RecordedRequest[] = [];
  const envelopes = new Map<string, EnvelopeDefinition>();
  const failures = new Map<FakeEndpoint, FakeFailure[]>();
  /** Valid access tokens with their expiry (ms since epoch). */
  const tokens = new Map<string, number>();
  const hanging = new Set<() => void>();
  /** Requests answered with a queued failure: what a test scripted, not what DocuSign answers. */
  const scripted = new WeakSet<FastifyRequest>();

  // Hanging requests must not keep close() waiting.
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 50 * 1024 * 1024 });
  const violations = checkAgainstDescription(app, (request) => scripted.has(request));
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  /**
   * Records the request and answers the queued failure if there is one: 'answered' then. A queued
   * 'hang' is the handler's to carry out after doing its work.
   */
  function arrive(
    endpoint: FakeEndpoint,
    request: FastifyRequest,
    reply: FastifyReply,
  ): 'answered' | 'hang' | undefined {
    requests.push({
      endpoint,
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      body: request.body,
    });
    const failure = failures.get(endpoint)?.shift();
    if (failure === undefined) return undefined;
    scripted.add(request);
    if (failure === 'hang') return failure;
    if (failure.retryAfter !== undefined) reply.header('Retry-After', failure.retryAfter);
    reply
      .status(failure.status)
      .send(failure.body ?? { errorCode: 'UNSPECIFIED_ERROR', message: 'Fake failure' });
    return 'answered';
  }

  function hang(): Promise<void> {
    return new Promise((resolve) => hanging.add(resolve));
  }

  /** DocuSign's answer to a missing, unknown or expired bearer token. */
  function authorised(request: FastifyRequest, reply: FastifyReply): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const expiresAt = bearer === undefined ? undefined : tokens.get(bearer);
    if (expiresAt !== undefined && Date.now() < expiresAt) return true;
    reply.status(401).send({
      errorCode: 'USER_AUTHENTICATION_FAILED',
      message: 'One or both of Username and Password are invalid. Invalid access token',
    });
    return false;
  }

  app.post('/oauth/token', async (request, reply) => {
    const arrival = arrive('token', request, reply);
    if (arrival === 'answered') return reply;
    const form = tokenRequestSchema.safeParse(request.body);
    if (!form.success) return reply.status(400).send({ error: 'invalid_request' });
    try {
      const { payload } = await jwtVerify(form.data.assertion, publicKey, {
        algorithms: ['RS256'],
        issuer: options.integrationKey,
        subject: options.userId,
        audience: new URL(authUrl).host,
        requiredClaims: ['iat', 'exp', 'scope'],
      });
      const scopes = String(payload.scope).split(' ');
      // DocuSign refuses assertions valid for longer than an hour and grants without impersonation.
      if ((payload.exp as number) - (payload.iat as number) > 3600) throw new Error('exp too far');
      if (!scopes.includes('signature') || !scopes.includes('impersonation')) throw new Error('scope');
    } catch {
      return reply
        .status(400)
        .send({ error: 'invalid_grant', error_description: 'no_valid_keys_or_signatures' });
    }
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, Date.now() + lifetime * 1000);
    if (arrival === 'hang') return hang();
    return { access_token: accessToken, token_type: 'Bearer', expires_in: lifetime };
  });

  app.get('/oauth/userinfo', async (request, reply) => {
    const arrival = arrive('userinfo', request, reply);
    if (arrival === 'answered' || !authorised(request, reply)) return reply;
    if (arrival === 'hang') return hang();
    return {
      sub: options.userId,
      name: 'Integration Vertragsgenerator',
      email: 'integration@firma.example',
      // The user's default account is another one: the client must pick the configured account.
      accounts: [
        {
          account_id: 'a0000000-0000-0000-0000-000000000000',
          is_default: true,
          account_name: 'Anderes Konto',
          base_uri: 'https://other.docusign.example',
        },
        {
          account_id: options.accountId,
          is_default: false,
          account_name: 'Vertragsgenerator',
          base_uri: origin,
        },
      ],
    };
  });

  app.post<{ Params: { accountId: string } }>(
    '/restapi/v2.1/accounts/:accountId/envelopes',
    async (request, reply) => {
      const arrival = arrive('createEnvelope', request, reply);
      if (arrival === 'answered' || !authorised(request, reply)) return reply;
      if (request.params.accountId !== options.accountId) {
        return reply.status(400).send({
          errorCode: 'USER_LACKS_MEMBERSHIP',
          message: 'The UserID does not have a valid membership in this Account.',
        });
      }
      const parsed = envelopeDefinitionSchema.safeParse(request.body);
      if (!parsed.success) {
        return reply
          .status(400)
          .send({ errorCode: 'INVALID_REQUEST_BODY', message: z.prettifyError(parsed.error) });
      }
      let missing: string | undefined;
      try {
        missing = 'documents' in parsed.data ? missingAnchor(parsed.data) : undefined;
      } catch {
        return reply
          .status(400)
          .send({ errorCode: 'FORMAT_CONVERSION_ERROR', message: 'The data could not be converted.' });
      }
      if (missing) {
        return reply.status(400).send({
          errorCode: 'ANCHOR_TAB_STRING_NOT_FOUND',
          message: `The specified Anchor Tab string was not found in the document. Anchor Tab String "${missing}" not found.`,
        });
      }
      const envelopeId = randomUUID();
      envelopes.set(envelopeId, parsed.data);
      if (arrival === 'hang') return hang();
      return reply.status(201).send({
        envelopeId,
        uri: `/envelopes/${envelopeId}`,
        statusDateTime: new Date().toISOString(),
        status: 'created',
      });
    },
  );

  app.post<{ Params: { accountId: string; envelopeId: string }; Body: { returnUrl?: unknown } }>(
    '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/views/sender',
    async (request, reply) => {
      const arrival = arrive('senderView', request, reply);
      if (arrival === 'answered' || !authorised(request, reply)) return reply;
      if (!envelopes.has(request.params.envelopeId)) {
        return reply.status(404).send({
          errorCode: 'ENVELOPE_DOES_NOT_EXIST',
          message: 'The envelope specified either does not exist or you have no rights to it.',
        });
      }
      const returnUrl = request.body?.returnUrl;
      if (typeof returnUrl !== 'string' || !URL.canParse(returnUrl)) {
        return reply
          .status(400)
          .send({ errorCode: 'INVALID_REQUEST_PARAMETER', message: 'returnUrl is required.' });
      }
      if (arrival === 'hang') return hang();
      const url = new URL(`/senderview/${request.params.envelopeId}`, origin);
      url.searchParams.set('returnUrl', returnUrl);
      return reply.status(201).send({ url: url.toString() });
    },
  );

  app.get<{ Params: { accountId: string; envelopeId: string }; Querystring: { certificate?: string } }>(
    '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/documents/combined',
    async (request, reply) => {
      const arrival = arrive('combinedDocument', request, reply);
      if (arrival === 'answered' || !authorised(request, reply)) return reply;
      if (!envelopes.has(request.params.envelopeId)) {
        return reply.status(404).send({
          errorCode: 'ENVELOPE_DOES_NOT_EXIST',
          message: 'The envelope specified either does not exist or you have no rights to it.',
        });
      }
      if (arrival === 'hang') return hang();
      return reply.type('application/pdf').send(combinedDocument(request.params.envelopeId));
    },
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const authUrl = origin;

  return {
    authUrl,
    basePath: `${origin}/restapi`,
    requests,
    violations,
    envelopes,
    combinedDocument,
    failNext(endpoint, ...next) {
      failures.set(endpoint, [...(failures.get(endpoint) ?? []), ...next]);
    },
    revokeTokens() {
      tokens.clear();
    },
    async close() {
      for (const release of hanging) release();
      await app.close();
      if (violations.length > 0) {
        throw new Error(`Exchanges unlike DocuSign's API description:\n${violations.join('\n')}`);
      }
    },
  };
}

/** DocuSign refuses an envelope whose required anchor (anchorIgnoreIfNotPresent false) is not in its document. */
function missingAnchor(envelope: DocumentEnvelope): string | undefined {
  const [document] = envelope.documents;
  if (!document) return undefined;
  const text = docxText(Buffer.from(document.documentBase64, 'base64'));
  return envelope.recipients.signers
    .flatMap((signer) => [
      ...signer.tabs.signHereTabs,
      ...(signer.tabs.dateSignedTabs ?? []),
      ...(signer.tabs.fullNameTabs ?? []),
    ])
    .find((tab) => tab.anchorIgnoreIfNotPresent === 'false' && !text.includes(tab.anchorString))
    ?.anchorString;
}

/** A stand-in for DocuSign's combined PDF: the bytes depend on the envelope only. */
function combinedDocument(envelopeId: string): Buffer {
  return Buffer.from(
    `%PDF-1.7\n% DocuSign combined document of ${envelopeId}, Certificate of Completion\n%%EOF\n`,
  );
}
