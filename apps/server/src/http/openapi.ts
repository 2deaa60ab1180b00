import swagger from '@fastify/swagger';
import { apiErrorSchema } from '@vertragsgenerator/domain';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMITS_API_CLIENTS, type AuthGuards } from './guards.js';

/** Routes behind a `token` or `session` guard: the OpenID Connect ID token as `Authorization: Bearer`. */
export const BEARER = [{ bearerAuth: [] }];
/** Routes anyone may call; the signer routes authorise by the link token in their documented header. */
export const PUBLIC = [];
/** An API client's token, beside a person's sign-in, on the routes whose guard admits clients. */
const API_CLIENT = [{ apiClientToken: [] }];

/** Whether one of the route's guards admits API clients (a `session` guard of levels, not 'signed-in'). */
function admitsApiClients(route: { preHandler?: unknown; onRequest?: unknown }): boolean {
  const hooks = [route.preHandler, route.onRequest].flat();
  return hooks.some(
    (hook) => typeof hook === 'function' && ADMITS_API_CLIENTS in hook && hook[ADMITS_API_CLIENTS] === true,
  );
}

/** The metrics: a scraper's own token, not a person's sign-in. */
export const METRICS_TOKEN = [{ metricsToken: [] }];

const ERROR_DESCRIPTIONS = {
  400: 'Invalid input; `fields` names the failing fields',
  401: 'No or invalid bearer token, or the session has ended',
  403: 'The permission level does not allow this',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'The signing link has expired or was used',
  413: 'The body is too large',
  415: 'The body is not of the documented content type',
  422: 'The signature provider refused the envelope',
  428: 'If-Match naming the edited version is missing',
  429: 'Too many requests; retry in a minute',
  431: 'The request headers are larger than 16 kB; refused before any route',
  500: 'A document template is broken (`render_failed`)',
  503: 'A dependency is unavailable; retry in a moment',
} as const;
type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/**
 * The `{ error, message, fields? }` answers a route gives (docs/architecture.md#api-conventions), with
 * route-specific wording where given.
 */
export function errorAnswers(
  statuses: ErrorStatus[],
  descriptions: Partial<Record<ErrorStatus, string>> = {},
): Partial<Record<ErrorStatus, z.ZodType>> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      apiErrorSchema.describe(descriptions[status] ?? ERROR_DESCRIPTIONS[status]),
    ]),
  );
}

/** An answer that is a file (DOCX, PDF) rather than JSON. */
export function fileAnswer(mime: string, description: string) {
  return { description, content: { [mime]: { schema: z.file().mime(mime) } } };
}

/** An answer without body. */
export const noContent = (description: string) => z.null().describe(description);

/** The answer of calls that only confirm. */
export const acknowledged = z.object({ ok: z.literal(true) });

const TAGS = [
  { name: 'system', description: 'Liveness, runtime settings and this description' },
  { name: 'auth', description: 'Sessions and the own permission level' },
  { name: 'users', description: 'Staff directory and the signatories of offers and terminations' },
  { name: 'match', description: 'CRM matches (`PL-…`)' },
  { name: 'documents', description: 'Document generation and the document history of a match' },
  { name: 'stored documents', description: 'Generated documents and their versions in the built-in editor' },
  { name: 'signature', description: 'E-signature envelopes as their sender sees them' },
  {
    name: 'templates',
    description: 'The template library for legal staff: the placeholders a template may use',
  },
  {
    name: 'clauses',
    description:
      'The clause library for legal staff: clauses versioned and published like templates, and where each is used',
  },
  {
    name: 'signing',
    description: 'Signing pages of the built-in signing, authorised by the signer’s link token',
  },
  {
    name: 'contracts',
    description: 'Running contracts: records with their end and notice deadline, chains, exports and figures',
  },
  {
    name: 'batches',
    description: 'Serien: one document for many deals, checked first, then made as a durable job',
  },
  {
    name: 'negotiation',
    description:
      'Review rounds with the counterparty: staff send and decide, the reviewer’s page is authorised by its link token',
  },
  { name: 'support', description: 'Problem reports' },
  {
    name: 'webhooks',
    description: 'What a webhook receiver fetches, signed with its endpoint’s secret instead of a token',
  },
  {
    name: 'administration',
    description: 'Team-Operations: access requests, staff and levels, audit log, match import',
  },
] as const;

/**
 * Makes the zod schemas on routes describe the API and nothing more. The routes read their input
 * themselves with the domain's schemas (`parseInput`): in the order a user can fix it (key,
 * permission, fields, match) and with German `{ error, message, fields }` answers, which Fastify's
 * own validation would preempt. So validation lets everything through to the handlers, and
 * serialization stays plain JSON, so that no answer loses a field its schema does not name.
 * Applies to routes registered after it, on this instance and its plugins.
 */
export function useSchemasAsDescription(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/**
 * A stable, unique name for each operation, from its method and path, for generated clients:
 * `GET /backend/documents/:id/versions/:version/file` is `getDocumentsByIdVersionsByVersionFile`.
 */
function operationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment) => segment && segment !== 'backend')
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]?.toUpperCase() + word.slice(1))].join('');
}

type JsonSchema = { [keyword: string]: unknown };

/**
 * zod writes a record over an enum of keys (`z.record(z.enum([...]), …)`, every key present) as
 * `propertyNames` plus `required`, which OpenAPI tools read as required properties the schema never
 * defines. The same object, with a property per key, says it to them: each key, its value's schema.
 */
function recordsAsObjects<T>(value: T): T {
  if (Array.isArray(value)) return value.map(recordsAsObjects) as T;
  if (value === null || typeof value !== 'object') return value;
  const schema = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, recordsAsObjects(child)]),
  ) as JsonSchema;
  const keys = (schema.propertyNames as JsonSchema | undefined)?.enum;
  if (!Array.isArray(keys) || schema.properties || typeof schema.additionalProperties !== 'object') {
    return schema as T;
  }
  const { propertyNames: _keys, additionalProperties: valueSchema, ...rest } = schema;
  return {
    ...rest,
    properties: Object.fromEntries(keys.map((key) => [String(key), valueSchema])),
    required: keys.map(String),
    additionalProperties: false,
  } as T;
}

/**
 * Describes the API as OpenAPI 3.1 from the zod schemas the routes carry, and serves it at
 * `/backend/docs` to signed-in users. Must run before the routes are registered: it collects them
 * as they are.
 */
export async function installOpenApi(
  app: FastifyInstance,
  { version, guards }: { version: string; guards: AuthGuards },
): Promise<void> {
  useSchemasAsDescription(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vertragsgenerator API',
        version,
        description:
          'Turns a CRM match into contract documents. Errors answer `{ error, message, fields? }` with a German `message`.',
        license: {
          name: 'Proprietary: for use inside the company only',
          identifier: 'LicenseRef-Proprietary',
        },
      },
      servers: [{ url: '/' }],
      tags: [...TAGS],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The OpenID Connect ID token of the sign-in; `POST /backend/private/saveUser` opens its session.',
          },
          apiClientToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The token of an API client (`vg_…`), created by an administrator on /verwaltung → API-Zugänge. The client acts with the permission level it was given, on the routes that list this scheme; each call is in the audit log, and `API_CLIENT_REQUESTS_PER_MINUTE` calls per minute are allowed (then 429).',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'METRICS_TOKEN of the server configuration, held by the Prometheus scraper.',
          },
        },
      },
    },
    transform: (route) => {
      // The embedded identity provider (/idp) and the SPA's files are not part of the API.
      if (!route.url.startsWith('/backend/')) return { schema: { hide: true }, url: route.url };
      // Headers above Node's 16 kB are refused before any route (http/errors.ts), on every operation alike.
      const response = { ...(route.schema.response as object), ...errorAnswers([431]) };
      const { schema, url } = jsonSchemaTransform({ ...route, schema: { ...route.schema, response } });
      const security = admitsApiClients(route.route) ? { security: [...BEARER, ...API_CLIENT] } : {};
      return {
        url,
        schema: {
          operationId: operationId(String(route.route.method), url),
          ...recordsAsObjects(schema),
          ...security,
        },
      };
    },
  });

  app.get(
    '/backend/docs',
    {
      preHandler: guards.session('signed-in'),
      schema: {
        tags: ['system'],
        summary: 'This OpenAPI description of the API',
        security: BEARER,
        response: {
          200: z
            .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
            .describe('OpenAPI 3.1 document'),
          ...errorAnswers([401]),
        },
      },
    },
    async () => app.swagger(),
  );
}
