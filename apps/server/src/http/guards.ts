import { API_CLIENT_TOKEN_PREFIX, type PermissionLevel } from '@vertragsgenerator/domain';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { SessionsRepository } from '../auth/sessions-repository.js';
import type { TokenIdentity, TokenVerifier } from '../auth/token-verifier.js';
import {
  type ApiClientIdentity,
  type ApiClientRefusal,
  apiClientActor,
} from '../integrations/api-clients/api-clients.js';
import { forbidden, HttpError, unauthorized } from '../shared/http-error.js';
import type { StaffMember } from '../users/users-repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards: whom the verified token names. */
    identity?: TokenIdentity;
    /** Set by `session` guards: the user's directory entry with their permission level. */
    user?: StaffMember;
    /** Set by `session` guards for a call with an API client's token instead of a person's. */
    apiClient?: ApiClientIdentity;
  }
}

/** Marks the guards that admit API clients, so the API description can say which routes take their token. */
export const ADMITS_API_CLIENTS = Symbol('admits API clients');

/** What the guards need of the API clients: who a token names, and the limit of calls per client. */
export interface ApiClientGate {
  authenticate(token: string): Promise<ApiClientIdentity | ApiClientRefusal>;
  /** Counts the call against the client's limit per minute; throws the 429 when it is used up. */
  throttle(request: FastifyRequest): Promise<void>;
}

const PERSONS_ONLY = 'Diese Funktion steht nur angemeldeten Personen offen, nicht API-Zugängen.';

/**
 * Who may call a route: `signed-in` needs an open session, `staff` also any permission level, a list
 * admits exactly those levels and, where it names `administrator`, the Team-Operations capability.
 */
export type Access = 'signed-in' | 'staff' | readonly (PermissionLevel | 'administrator')[];

export interface AuthGuards {
  /** A valid token, no session needed: only for saveUser, which opens the session. */
  token: preHandlerAsyncHookHandler;
  /**
   * An open session whose user `access` admits. `personsOnly`: an API client is refused even where its
   * level would do, for what must be a person's decision (a Freigabe).
   */
  session(access: Access, options?: { personsOnly?: boolean }): preHandlerAsyncHookHandler;
}

export interface AuthGuardDeps {
  verifier: TokenVerifier;
  sessions: SessionsRepository;
  /** ADMIN_EMAILS, lower case: administrators whatever the database says, so access can't be lost. */
  administrators?: ReadonlySet<string>;
  /** Tokens starting with `vg_` are API clients' (`integrations/api-clients/`); without a gate they are refused. */
  apiClients?: ApiClientGate;
}

export function createAuthGuards({
  verifier,
  sessions,
  administrators = new Set(),
  apiClients,
}: AuthGuardDeps): AuthGuards {
  function bearerToken(request: FastifyRequest): string {
    const match = request.headers.authorization?.match(/^Bearer ([A-Za-z0-9._~+/=-]+)$/);
    if (!match?.[1]) throw unauthorized();
    return match[1];
  }

  const admits = (access: Exclude<Access, 'signed-in'>, user: StaffMember) =>
    access === 'staff'
      ? user.permission !== null
      : (user.permission !== null && access.includes(user.permission)) ||
        (user.administrator && access.includes('administrator'));

  /**
   * An API client acts with its level on the routes a person of that level may call; never on the
   * routes of a person's own session ('signed-in') nor on those of administrators, a capability no
   * client has. Every call counts against its limit, refused ones too.
   */
  async function admitClient(
    request: FastifyRequest,
    token: string,
    access: Access,
    personsOnly: boolean,
  ): Promise<void> {
    if (!apiClients) throw unauthorized();
    const client = await apiClients.authenticate(token);
    if ('refused' in client) throw new HttpError(401, 'unauthorized', client.refused);
    request.apiClient = client;
    await apiClients.throttle(request);
    if (access === 'signed-in' || personsOnly) throw forbidden(PERSONS_ONLY);
    const user = {
      email: apiClientActor(client.name),
      name: client.name,
      permission: client.permission,
      administrator: false,
    };
    if (!admits(access, user)) throw forbidden('Dafür fehlt diesem API-Zugang die Berechtigung.');
    request.user = user;
  }

  async function identify(request: FastifyRequest): Promise<TokenIdentity> {
    const token = bearerToken(request);
    if (token.startsWith(API_CLIENT_TOKEN_PREFIX)) throw forbidden(PERSONS_ONLY);
    let identity: TokenIdentity | null;
    try {
      identity = await verifier.verify(token);
    } catch (error) {
      request.log.error({ err: error }, 'identity provider keys unavailable');
      throw new HttpError(
        503,
        'unavailable',
        'Der Anmeldedienst ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
      );
    }
    if (!identity) throw unauthorized();
    request.identity = identity;
    return identity;
  }

  return {
    token: async (request) => {
      await identify(request);
    },
    session: (access, { personsOnly = false } = {}) => {
      const guard: preHandlerAsyncHookHandler = async (request) => {
        const token = bearerToken(request);
        if (token.startsWith(API_CLIENT_TOKEN_PREFIX))
          return admitClient(request, token, access, personsOnly);
        const identity = await identify(request);
        const session = await sessions.lookup(identity.tokenHash);
        if (session.state !== 'active') throw unauthorized();
        const listed = session.user ?? {
          email: identity.email,
          name: identity.name,
          permission: null,
          administrator: false,
        };
        const user = { ...listed, administrator: listed.administrator || administrators.has(listed.email) };
        request.user = user;
        if (access === 'signed-in') return;
        if (!admits(access, user)) throw forbidden();
      };
      const levels =
        !personsOnly &&
        (access === 'staff' || (access !== 'signed-in' && access.some((a) => a !== 'administrator')));
      return Object.assign(guard, { [ADMITS_API_CLIENTS]: levels });
    },
  };
}

/** The user a `session` guard admitted; routes without such a guard never reach this. */
export function currentUser(request: FastifyRequest): StaffMember {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The identity a `token` or `session` guard verified. */
export function currentIdentity(request: FastifyRequest): TokenIdentity {
  if (!request.identity) throw unauthorized();
  return request.identity;
}
