import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { IssuerMetadata } from '../auth/issuer-discovery.js';
import { errorAnswers, PUBLIC } from '../http/openapi.js';
import { HttpError } from '../shared/http-error.js';

/** How this server completes the browser's code exchange for an issuer that wants a client secret. */
export interface TokenExchange {
  discover: () => Promise<IssuerMetadata>;
  clientId: string;
  clientSecret: string;
}

export interface TokenExchangeRoutesDeps {
  exchange: TokenExchange;
  rateLimit: { max: number; timeWindow: string };
}

export const TOKEN_EXCHANGE_PATH = '/backend/auth/token';

/** The grants of the browser's sign-in: the PKCE code exchange and the silent renewal. */
const tokenRequestSchema = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  client_id: z.string().optional(),
  code: z.string().max(4096).optional(),
  code_verifier: z.string().max(256).optional(),
  redirect_uri: z.string().max(2048).optional(),
  refresh_token: z.string().max(4096).optional(),
  scope: z.string().max(2048).optional(),
});

const unreachable = () =>
  new HttpError(
    503,
    'unavailable',
    'Die Anmeldung ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
  );

/**
 * Some issuers (Google's "Web application" clients) insist on the client secret at the token endpoint
 * even with PKCE, and a secret must never reach the browser. With `OIDC_CLIENT_SECRET` set the web app
 * sends its token requests here instead; this route adds the secret and passes them on to the issuer's
 * token endpoint unchanged otherwise. The issuer still checks the code, the PKCE verifier and the
 * redirect URI, so this route can exchange nothing the browser could not.
 */
export const tokenExchangeRoutes: FastifyPluginAsync<TokenExchangeRoutesDeps> = async (
  app,
  { exchange, rateLimit },
) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    TOKEN_EXCHANGE_PATH,
    {
      config: { rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'The OAuth token endpoint of the web app’s sign-in, completed with the client secret',
        security: PUBLIC,
        consumes: ['application/x-www-form-urlencoded'],
        body: tokenRequestSchema,
        response: {
          200: z.record(z.string(), z.unknown()).describe('The issuer’s token answer, unchanged'),
          ...errorAnswers([400, 429, 503], { 400: 'Not a sign-in grant, or the issuer refused it' }),
        },
      },
    },
    async (request, reply) => {
      const parsed = tokenRequestSchema.safeParse(request.body ?? {});
      if (!parsed.success || (parsed.data.client_id && parsed.data.client_id !== exchange.clientId)) {
        throw new HttpError(400, 'invalid_request', 'Diese Anfrage gehört nicht zur Anmeldung.');
      }
      let tokenEndpoint: string | undefined;
      try {
        tokenEndpoint = (await exchange.discover()).tokenEndpoint;
      } catch (error) {
        request.log.error({ err: error }, 'issuer discovery failed');
        throw unreachable();
      }
      if (!tokenEndpoint) throw unreachable();

      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(parsed.data)) if (value !== undefined) form.set(name, value);
      form.set('client_id', exchange.clientId);
      form.set('client_secret', exchange.clientSecret);
      let answer: Response;
      try {
        answer = await fetch(tokenEndpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        request.log.error({ err: error }, 'token endpoint unreachable');
        throw unreachable();
      }
      const body = await answer.text();
      if (answer.status >= 500) {
        request.log.error({ status: answer.status }, 'token endpoint failed');
        throw unreachable();
      }
      // The issuer's own answer (tokens, or an OAuth error the sign-in library understands).
      reply.header('cache-control', 'no-store');
      return reply
        .status(answer.ok ? 200 : 400)
        .type(answer.headers.get('content-type') ?? 'application/json')
        .send(body);
    },
  );
};
