import type { FastifyRequest } from 'fastify';
import type { Actor } from '../signature/envelopes-repository.js';
import { currentUser } from './guards.js';

/** Longer user agents are padding or an attack, not information worth storing with every event. */
const USER_AGENT_MAX = 500;

/** Who acted, as envelope events record it: the client's address and browser. Signers have no account. */
export function clientActor(request: FastifyRequest): Omit<Actor, 'email'> {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null };
}

/** The signed-in staff member who acted, with their address and browser. */
export function requestActor(request: FastifyRequest): Actor {
  return { email: currentUser(request).email, ...clientActor(request) };
}
