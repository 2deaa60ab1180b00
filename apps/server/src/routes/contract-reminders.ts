import {
  contractReminderSettingSchema,
  contractReminderSettingsChangeSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ContractReminderSettings } from '../contracts/reminders/reminder-settings.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';

/**
 * /verwaltung: how many days before a running contract's last day to give notice and before its end
 * the reminders go out, per company. Staff and administrators read them; administrators change them,
 * each change with its audit entry.
 */
export const contractReminderRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  settings: ContractReminderSettings;
}> = async (app, { guards, settings }) => {
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/contract-reminder-settings',
    {
      preHandler: guards.session([1, 2, 3, 'administrator']),
      schema: {
        ...common,
        summary: 'Per company: the days before a contract’s notice deadline and end that reminders go out',
        response: { 200: contractReminderSettingSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => settings.list(),
  );

  app.put(
    '/backend/contract-reminder-settings',
    {
      preHandler: guards.session(['administrator']),
      schema: {
        ...common,
        summary: 'Set the reminder lead times of one or more companies (administrators)',
        description: 'They apply from the next reminder run on. Audited per company changed.',
        body: contractReminderSettingsChangeSchema,
        response: {
          200: contractReminderSettingSchema.array().describe('Every company after the change'),
          ...errorAnswers([400, 401, 403], {
            400: 'A company that does not exist, named twice, or days outside 1–365',
          }),
        },
      },
    },
    async (request) => {
      const change = parseInput(contractReminderSettingsChangeSchema, request.body);
      return settings.change(currentUser(request).email, change);
    },
  );
};
