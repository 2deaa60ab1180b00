import { supportReportSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';
import type { SupportReports } from '../support/support-reports.js';

export interface SupportRoutesDeps {
  guards: AuthGuards;
  reports: SupportReports;
  rateLimit: { max: number; timeWindow: string };
}

/** "Problem melden": the report is stored first and answered; mailing happens after. */
export const supportRoutes: FastifyPluginAsync<SupportRoutesDeps> = async (
  app,
  { guards, reports, rateLimit },
) => {
  app.post(
    '/backend/sendSupportEmail',
    {
      preHandler: guards.session('signed-in'),
      config: { rateLimit },
      schema: {
        tags: ['support'],
        summary: 'Report a problem to the support address',
        security: BEARER,
        body: supportReportSchema,
        response: {
          200: z.object({ id: z.number().int() }).describe('The report is stored; the mail follows'),
          ...errorAnswers([400, 401, 429]),
        },
      },
    },
    async (request) => {
      const report = parseInput(supportReportSchema, request.body);
      const user = currentUser(request);
      const id = await reports.submit(report, { email: user.email, name: user.name });
      return { id };
    },
  );
};
