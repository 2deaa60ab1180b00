import type { PermissionLevel } from '@vertragsgenerator/domain';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { SessionsRepository } from '../auth/sessions-repository.js';
import type { TokenIdentity, TokenVerifier } from '../auth/token-verifier.js';
import { forbidden, HttpError, unauthorized } from '../shared/http-error.js';
import type { StaffMember } from '../users/users-repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards: whom the verified token names. */
    identity?: TokenIdentity;
    /** Set by `session` guards: the user's directory entry with their permission level. */
    user?: StaffMember;
  }
}

/**
 * Who may call a route: `signed-in` needs an open session, `staff` also any permission level, a list
 * admits exactly those levels and, where it names `administrator`, the Team-Operations capability.
 */
export type Access = 'signed-in' | 'staff' | readonly (PermissionLevel | 'administrator')[];

export interface AuthGuards {
  /** A valid token, no session needed: only for saveUser, which opens the session. */
  token: preHandlerAsyncHookHandler;
  session(access: Access): preHandlerAsyncHookHandler;
}

export interface AuthGuardDeps {
  verifier: TokenVerifier;
  sessions: SessionsRepository;
  /** ADMIN_EMAILS, lower case: administrators whatever the database says, so access can't be lost. */
  administrators?: ReadonlySet<string>;
}

export function createAuthGuards({
  verifier,
  sessions,
  administrators = new Set(),
}: AuthGuardDeps): AuthGuards {
  async function identify(request: FastifyRequest): Promise<TokenIdentity> {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer ([A-Za-z0-9._~+/=-]+)$/);
    if (!match?.[1]) throw unauthorized();
    let identity: TokenIdentity | null;
    try {
      identity = await verifier.verify(match[1]);
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
    session: (access) => async (request) => {
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
      const allowed =
        access === 'staff'
          ? user.permission !== null
          : (user.permission !== null && access.includes(user.permission)) ||
            (user.administrator && access.includes('administrator'));
      if (!allowed) throw forbidden();
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
