import { approvalRulesChangeSchema, approvalRulesViewSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ApprovalRulesStore } from '../approvals/approval-rules-store.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';
import type { StaffMember } from '../users/users-repository.js';

/** Administrators and legal staff (level 2) change the approval rules. */
const mayChange = (user: StaffMember) => user.administrator || user.permission === 2;

/**
 * /verwaltung, tab Freigaben: the approval rules. Staff read them (the sender view and /freigaben show
 * what they say); administrators and legal staff change them, each change with its audit entry; only
 * administrators name deputies.
 */
export const approvalRulesRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  rules: ApprovalRulesStore;
}> = async (app, { guards, rules }) => {
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/approval-rules',
    {
      preHandler: guards.session([1, 2, 3, 'administrator']),
      schema: {
        ...common,
        summary: 'The approval rules (Freigabe)',
        response: { 200: approvalRulesViewSchema, ...errorAnswers([401, 403]) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return rules.view({ change: mayChange(user), nameDeputies: user.administrator });
    },
  );

  app.put(
    '/backend/approval-rules',
    {
      preHandler: guards.session([2, 'administrator']),
      schema: {
        ...common,
        summary: 'Replace the approval rules; they apply to requests made from now on',
        body: approvalRulesChangeSchema,
        response: {
          200: approvalRulesViewSchema.describe('The rules after the change'),
          ...errorAnswers([400, 401, 403, 409], {
            403: 'Neither an administrator nor legal staff; or legal staff changing the deputies, which only administrators name',
            409: 'Someone changed the rules since the given version',
          }),
        },
      },
    },
    async (request) => {
      const change = parseInput(approvalRulesChangeSchema, request.body);
      return rules.change(currentUser(request), change);
    },
  );
};
