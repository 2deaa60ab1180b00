import {
  RETENTION_RULES,
  retentionOverviewSchema,
  retentionRuleChangeSchema,
  retentionRuleSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import type { DeletionRun } from '../privacy/deletion-run.js';
import type { LegalHolds } from '../privacy/legal-holds.js';
import type { RetentionRules } from '../privacy/retention-rules.js';
import { parseInput } from '../shared/http-error.js';

const ruleParams = z.object({
  rule: z.enum(RETENTION_RULES, { error: 'Diese Aufbewahrungsregel gibt es nicht.' }).describe('The rule'),
});

/**
 * /verwaltung → Aufbewahrung: the retention rules, the legal holds and the last deletion runs.
 * Administrators only; each change of a rule is written with its audit entry.
 */
export const retentionRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  rules: RetentionRules;
  holds: LegalHolds;
  run: DeletionRun;
}> = async (app, { guards, rules, holds, run }) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/retention',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The retention rules, legal holds and the last deletion runs',
        response: { 200: retentionOverviewSchema, ...errorAnswers([401, 403]) },
      },
    },
    async () => ({ rules: await rules.list(), holds: await holds.list(), runs: await run.lastRuns() }),
  );

  app.put(
    '/backend/admin/retention/:rule',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Change the period of a retention rule',
        params: ruleParams,
        body: retentionRuleChangeSchema,
        response: {
          200: retentionRuleSchema.array().describe('Every rule after the change'),
          ...errorAnswers([400, 401, 403, 409], { 409: 'The audit log is never deleted by a rule' }),
        },
      },
    },
    async (request) => {
      const { rule } = parseInput(ruleParams, request.params);
      const { period } = parseInput(retentionRuleChangeSchema, request.body);
      return rules.change(currentUser(request).email, rule, period);
    },
  );
};
