import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { DRIVE_SCOPES } from '../config/config.js';
import type { Db } from '../db/database.js';
import { loadOnce } from '../shared/load-once.js';
import type { IdpAccounts } from './accounts.js';
import { errorPage, IDP_PAGE_CSP, loginPage } from './pages.js';
import { payloadAdapterFactory } from './payload-adapter.js';
import { loadOrCreateIdpSecrets, publicJwks } from './secrets.js';

export interface EmbeddedIdpOptions {
  db: Db;
  accounts: IdpAccounts;
  /** e.g. http://localhost:8080/idp — the path part is where the provider is mounted. */
  issuer: string;
  publicUrl: string;
  clientId: string;
  trustProxy: boolean;
  rateLimit: { max: number; timeWindow: string };
}

export interface EmbeddedIdp {
  /** Key lookup for verifying the provider's ID tokens in-process. */
  keys: JWTVerifyGetKey;
  routes: FastifyPluginAsync;
}

const HOUR = 3600;
const WRONG_CREDENTIALS = 'E-Mail oder Passwort ist falsch. Bitte prüfe deine Eingabe.';
const INTERACTION_EXPIRED = 'Die Anmeldung ist abgelaufen oder wurde in einem anderen Fenster beendet.';

/**
 * The embedded OpenID Connect provider at /idp: used when no external issuer is
 * configured, so the whole sign-in flow runs on a fresh machine. The app signs in against it
 * exactly as against Google or Entra ID.
 */
export async function createEmbeddedIdp(options: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const { db, accounts, issuer, publicUrl, clientId } = options;
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const secrets = await loadOrCreateIdpSecrets(db);

  const configuration: Configuration = {
    adapter: payloadAdapterFactory(db),
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: secrets.cookieKeys },
    clients: [
      {
        client_id: clientId,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth/callback`],
      },
    ],
    pkce: { required: () => true },
    // With Google Docs as editor the SPA also asks for the Drive scopes. Unregistered, they would be dropped
    // from the grant; granted, this provider's access token stands in for Google's (e.g. for a Drive fake).
    scopes: ['openid', 'offline_access', ...DRIVE_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The app authenticates API calls with the ID token, so it must carry email and name itself.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    ttl: {
      AuthorizationCode: 60,
      IdToken: HOUR,
      AccessToken: HOUR,
      Interaction: 10 * 60,
      Session: 10 * HOUR,
      Grant: 10 * HOUR,
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.find(sub);
      if (!account) return undefined;
      return {
        accountId: account.email,
        claims: () => ({
          sub: account.email,
          email: account.email,
          email_verified: true,
          name: account.name,
        }),
      };
    },
    // Our own SPA is the only client: consent to its scopes is implied, there is no consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { session, client, params, provider } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const grant =
        (grantId ? await provider.Grant.find(grantId) : undefined) ??
        new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(params?.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', IDP_PAGE_CSP);
      ctx.body = errorPage(describeProviderError(out.error ?? ''));
    },
  };

  // oidc-provider (with koa, a megabyte of code) loads once the server listens, or with the first
  // request to the provider if that comes sooner: a restart does not wait for it.
  const loaded = loadOnce(async (): Promise<LoadedProvider> => {
    const { default: Provider, errors } = await import('oidc-provider');
    const provider = new Provider(issuer, configuration);
    provider.proxy = options.trustProxy;
    return { provider, handleRequest: provider.callback(), SessionNotFound: errors.SessionNotFound };
  });

  const routes: FastifyPluginAsync = async (app) => {
    app.addHook('onListen', async () => {
      loaded().catch((error: unknown) => app.log.error({ err: error }, 'the identity provider did not load'));
    });
    // Everything the provider answers itself (discovery, authorize, token, jwks, …). The body stays
    // unread so that the provider parses it; the URL is rewritten as a mounting framework would.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all(`${mountPath}/*`, { helmet: false }, async (request, reply) => {
        reply.hijack();
        const raw = request.raw as IncomingMessage & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = raw.url?.slice(mountPath.length) || '/';
        await (await loaded()).handleRequest(raw, reply.raw);
      });
    });

    // The German sign-in page of the interaction (login prompt).
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 8 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      scope.addHook('onSend', async (_request, reply) => {
        reply.header('content-security-policy', IDP_PAGE_CSP);
        reply.header('cache-control', 'no-store');
      });

      scope.get<{ Params: { uid: string } }>(
        `${mountPath}/interaction/:uid`,
        { helmet: false },
        async (request, reply) => {
          const details = await interactionDetails(request.raw, reply.raw, request.params.uid);
          if (!details) return reply.status(400).type('text/html').send(errorPage(INTERACTION_EXPIRED));
          if (details.prompt.name !== 'login') {
            // Consent is implied (loadExistingGrant); any other prompt finishes with what we know.
            const { provider } = await loaded();
            const returnTo = await provider.interactionResult(
              request.raw,
              reply.raw,
              {},
              { mergeWithLastSubmission: true },
            );
            return reply.redirect(returnTo, 303);
          }
          const loginHint =
            typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
          return reply
            .type('text/html')
            .send(loginPage({ action: `${mountPath}/interaction/${details.uid}/login`, email: loginHint }));
        },
      );

      scope.post<{ Params: { uid: string }; Body: { email?: string; password?: string } }>(
        `${mountPath}/interaction/:uid/login`,
        { helmet: false, config: { rateLimit: options.rateLimit } },
        async (request, reply) => {
          const details = await interactionDetails(request.raw, reply.raw, request.params.uid);
          if (!details) return reply.status(400).type('text/html').send(errorPage(INTERACTION_EXPIRED));
          const email = String(request.body?.email ?? '').slice(0, 320);
          const password = String(request.body?.password ?? '').slice(0, 1024);
          const account = email && password ? await accounts.authenticate(email, password) : undefined;
          if (!account) {
            const action = `${mountPath}/interaction/${details.uid}/login`;
            return reply
              .status(401)
              .type('text/html')
              .send(loginPage({ action, email, error: WRONG_CREDENTIALS }));
          }
          const { provider } = await loaded();
          const returnTo = await provider.interactionResult(
            request.raw,
            reply.raw,
            { login: { accountId: account.email } },
            { mergeWithLastSubmission: false },
          );
          return reply.redirect(returnTo, 303);
        },
      );
    });
  };

  async function interactionDetails(
    req: IncomingMessage,
    res: Parameters<Provider['interactionDetails']>[1],
    uid: string,
  ) {
    const { provider, SessionNotFound } = await loaded();
    try {
      const details = await provider.interactionDetails(req, res);
      return details.uid === uid ? details : undefined;
    } catch (error) {
      if (error instanceof SessionNotFound) return undefined;
      throw error;
    }
  }

  return { keys: createLocalJWKSet(publicJwks(secrets.signingKeys)), routes };
}

interface LoadedProvider {
  provider: Provider;
  handleRequest: ReturnType<Provider['callback']>;
  SessionNotFound: typeof import('oidc-provider').errors.SessionNotFound;
}

function describeProviderError(code: string): string {
  switch (code) {
    case 'invalid_request':
    case 'invalid_client':
    case 'invalid_redirect_uri':
      return 'Die Anmeldeanfrage ist ungültig. Bitte starte die Anmeldung im Vertragsgenerator neu.';
    case 'session_not_found':
    case 'invalid_grant':
      return INTERACTION_EXPIRED;
    default:
      return 'Bei der Anmeldung ist ein Fehler aufgetreten. Bitte versuche es erneut.';
  }
}
