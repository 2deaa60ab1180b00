import {
  accessRequestSchema,
  auditPageSchema,
  declineAccessBodySchema,
  grantAccessBodySchema,
  newColleagueSchema,
  staffChangeSchema,
  staffEntrySchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AccessRequests } from '../admin/access-requests.js';
import type { AuditLog } from '../admin/audit-log.js';
import type { StaffAdministration } from '../admin/staff-administration.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { acknowledged, BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';

export interface AdministrationRoutesDeps {
  guards: AuthGuards;
  requests: AccessRequests;
  staff: StaffAdministration;
  audit: AuditLog;
}

const idParams = z.object({ id: z.string().max(30) });
const emailParams = z.object({ email: z.string().trim().toLowerCase().max(320) });
const staffQuery = z.object({ search: z.string().max(200).optional() });
const removeQuery = z.object({ version: z.string().max(20).optional() });
const auditQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'Ungültige Position.')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * /verwaltung (docs/architecture.md#permissions): access requests, levels and colleagues, the audit
 * log. Administrators only, whatever their level; every change is written with its audit entry.
 */
export const administrationRoutes: FastifyPluginAsync<AdministrationRoutesDeps> = async (
  app,
  { guards, requests, staff, audit },
) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/access-requests',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Open access requests, oldest first',
        response: { 200: accessRequestSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => requests.listOpen(),
  );

  app.post(
    '/backend/admin/access-requests/:id/grant',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Grant a level; the requester is mailed',
        params: idParams,
        body: grantAccessBodySchema,
        response: { 200: acknowledged, ...errorAnswers([400, 401, 403, 404, 409]) },
      },
    },
    async (request) => {
      const { id } = parseInput(idParams, request.params);
      const { permission } = parseInput(grantAccessBodySchema, request.body);
      await requests.grant(currentUser(request).email, id, permission);
      return { ok: true as const };
    },
  );

  app.post(
    '/backend/admin/access-requests/:id/decline',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Decline with a reason; the requester is mailed',
        params: idParams,
        body: declineAccessBodySchema,
        response: { 200: acknowledged, ...errorAnswers([400, 401, 403, 404, 409]) },
      },
    },
    async (request) => {
      const { id } = parseInput(idParams, request.params);
      const { reason } = parseInput(declineAccessBodySchema, request.body);
      await requests.decline(currentUser(request).email, id, reason);
      return { ok: true as const };
    },
  );

  app.get(
    '/backend/admin/staff',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The staff list, searchable by name or e-mail',
        querystring: staffQuery,
        response: { 200: staffEntrySchema.array(), ...errorAnswers([400, 401, 403]) },
      },
    },
    async (request) => staff.list(parseInput(staffQuery, request.query).search),
  );

  app.post(
    '/backend/admin/staff',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Add a colleague before their first sign-in',
        body: newColleagueSchema,
        response: { 200: staffEntrySchema, ...errorAnswers([400, 401, 403, 409]) },
      },
    },
    async (request) => staff.add(currentUser(request).email, parseInput(newColleagueSchema, request.body)),
  );

  app.put(
    '/backend/admin/staff/:email',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Change the level or the administrator capability',
        params: emailParams,
        body: staffChangeSchema,
        response: {
          200: staffEntrySchema,
          ...errorAnswers([400, 401, 403, 404, 409], {
            409: 'Changed by someone else meanwhile, or the last administrator',
          }),
        },
      },
    },
    async (request) => {
      const { email } = parseInput(emailParams, request.params);
      const change = parseInput(staffChangeSchema, request.body);
      return staff.change(currentUser(request).email, email, change);
    },
  );

  app.delete(
    '/backend/admin/staff/:email',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Remove a person from the directory',
        params: emailParams,
        querystring: removeQuery,
        response: { 200: acknowledged, ...errorAnswers([400, 401, 403, 404, 409]) },
      },
    },
    async (request) => {
      const { email } = parseInput(emailParams, request.params);
      const { version } = parseInput(removeQuery, request.query);
      await staff.remove(currentUser(request).email, email, version);
      return { ok: true as const };
    },
  );

  app.get(
    '/backend/admin/audit',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The audit log, newest first',
        querystring: auditQuery,
        response: { 200: auditPageSchema, ...errorAnswers([400, 401, 403]) },
      },
    },
    async (request) => {
      const { before, limit } = parseInput(auditQuery, request.query);
      // One more than asked tells whether an older page exists.
      const entries = await audit.list({ limit: limit + 1, ...(before ? { before } : {}) });
      const page = entries.slice(0, limit);
      return {
        entries: page.map((e) => ({ ...e, at: e.at.toISOString() })),
        ...(entries.length > limit ? { next: page[page.length - 1]?.id } : {}),
      };
    },
  );
};
