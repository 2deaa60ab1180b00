import {
  permissionAnswerSchema,
  type SessionUser,
  saveUserBodySchema,
  sessionUserSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { SessionsRepository } from '../auth/sessions-repository.js';
import { type AuthGuards, currentIdentity, currentUser } from '../http/guards.js';
import { acknowledged, BEARER, errorAnswers, noContent } from '../http/openapi.js';
import { forbidden, parseInput, unauthorized } from '../shared/http-error.js';
import type { StaffMember, UsersRepository } from '../users/users-repository.js';

export interface AuthRoutesDeps {
  guards: AuthGuards;
  sessions: SessionsRepository;
  users: UsersRepository;
  rateLimit: { max: number; timeWindow: string };
  /** ADMIN_EMAILS. */
  administrators: ReadonlySet<string>;
  /** Whether the approval rules now name the user as approver (approvals/approval-rules-store.ts). */
  approver?: (user: StaffMember) => Promise<boolean>;
}

const emailParamSchema = z.object({ email: z.string().trim().toLowerCase().max(320) });

/** Sign-in, session check, permission lookup and logout (the levels: docs/architecture.md#permissions). */
export const authRoutes: FastifyPluginAsync<AuthRoutesDeps> = async (
  app,
  { guards, sessions, users, rateLimit, administrators, approver = async () => false },
) => {
  app.post(
    '/backend/private/saveUser',
    {
      preHandler: guards.token,
      config: { rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Open the session for a freshly issued ID token (sign-in)',
        security: BEARER,
        body: saveUserBodySchema,
        response: {
          200: sessionUserSchema.describe('The signed-in user and their permission level'),
          ...errorAnswers([400, 401, 403, 429], { 403: 'The e-mail address is not the token’s' }),
        },
      },
    },
    async (request) => {
      const body = parseInput(saveUserBodySchema, request.body ?? {});
      const identity = currentIdentity(request);
      if (body.email && body.email !== identity.email) {
        throw forbidden('Die E-Mail-Adresse passt nicht zu deiner Anmeldung.');
      }
      if (!(await sessions.open(identity))) throw unauthorized();
      const user = await users.recordSignIn(identity.email, identity.name);
      return sessionUser(user, administrators, await approver(user));
    },
  );

  app.post(
    '/backend/private/verifyUser',
    {
      preHandler: guards.session('signed-in'),
      schema: {
        tags: ['auth'],
        summary: 'Check the session of the token',
        security: BEARER,
        response: {
          200: sessionUserSchema.describe('The signed-in user and their permission level'),
          ...errorAnswers([401]),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return sessionUser(user, administrators, await approver(user));
    },
  );

  app.post<{ Params: { email: string } }>(
    '/backend/private/getPermission/:email',
    {
      preHandler: guards.session('signed-in'),
      schema: {
        tags: ['auth'],
        summary: 'Read the own permission level',
        security: BEARER,
        params: emailParamSchema,
        response: {
          200: permissionAnswerSchema.describe('1 consultant, 2 legal, 3 leader'),
          204: noContent('The user has no permission level'),
          ...errorAnswers([400, 401, 403], { 403: 'The e-mail address is not the user’s own' }),
        },
      },
    },
    async (request, reply) => {
      const { email } = parseInput(emailParamSchema, request.params);
      const user = currentUser(request);
      if (email !== user.email) throw forbidden('Du kannst nur deine eigene Berechtigung abfragen.');
      if (user.permission === null) return reply.status(204).send();
      return { data: user.permission };
    },
  );

  app.post<{ Params: { email: string } }>(
    '/backend/private/deleteUser/:email',
    {
      preHandler: guards.session('signed-in'),
      schema: {
        tags: ['auth'],
        summary: 'Sign out: end every session of the user',
        security: BEARER,
        params: emailParamSchema,
        response: {
          200: acknowledged.describe('The sessions are ended'),
          ...errorAnswers([400, 401, 403], { 403: 'The e-mail address is not the user’s own' }),
        },
      },
    },
    async (request) => {
      const { email } = parseInput(emailParamSchema, request.params);
      if (email !== currentUser(request).email) throw forbidden('Du kannst nur dich selbst abmelden.');
      await sessions.revokeAll(email);
      return { ok: true };
    },
  );
};

function sessionUser(user: StaffMember, administrators: ReadonlySet<string>, approver: boolean): SessionUser {
  return {
    email: user.email,
    name: user.name,
    permission: user.permission,
    administrator: user.administrator || administrators.has(user.email),
    approver,
  };
}
