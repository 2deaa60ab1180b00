import {
  COUNTERSIGNATURE_FAMILIES,
  countersignatureChangeSchema,
  countersignatureOrderChangeSchema,
  countersignatureOrderSchema,
  countersignatureSettingSchema,
  SIGNATURE_TEMPLATES,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { CountersignatureSettings } from '../admin/countersignature-settings.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';

const familyParams = z.object({
  family: z
    .enum(COUNTERSIGNATURE_FAMILIES, { error: 'Diese Dokumentart gibt es nicht.' })
    .describe('The document family: contract, termination, offer or agreement'),
});

const templateParams = z.object({
  template: z
    .enum(SIGNATURE_TEMPLATES as [string, ...string[]], {
      error: 'Diese Vorlage wird nicht zur Unterschrift versendet.',
    })
    .describe('The template file name, e.g. rahmenvertrag-de.docx'),
});

/**
 * /verwaltung: the switch „Ohne Gegenzeichnung senden erlaubt“ per document family, and whether the
 * company signs first or last per template. Administrators only, whatever their level; every change is
 * written with its audit entry.
 */
export const countersignatureSettingsRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  settings: CountersignatureSettings;
}> = async (app, { guards, settings }) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/countersignature',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Per document family: whether envelopes may be sent without a countersignatory',
        response: { 200: countersignatureSettingSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => settings.list(),
  );

  app.put(
    '/backend/admin/countersignature/:family',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Allow or refuse sending a document family without a countersignatory',
        params: familyParams,
        body: countersignatureChangeSchema,
        response: {
          200: countersignatureSettingSchema.array().describe('Every family after the change'),
          ...errorAnswers([400, 401, 403]),
        },
      },
    },
    async (request) => {
      const { family } = parseInput(familyParams, request.params);
      const { withoutAllowed } = parseInput(countersignatureChangeSchema, request.body);
      return settings.change(currentUser(request).email, family, withoutAllowed);
    },
  );

  app.get(
    '/backend/admin/countersignature/order',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Per template that goes out for signature: whether the company signs first or last',
        response: { 200: countersignatureOrderSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => settings.order.list(),
  );

  app.put(
    '/backend/admin/countersignature/order/:template',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: "Have a template's countersignatory sign first or last",
        params: templateParams,
        body: countersignatureOrderChangeSchema,
        response: {
          200: countersignatureOrderSchema.array().describe('Every template after the change'),
          ...errorAnswers([400, 401, 403]),
        },
      },
    },
    async (request) => {
      const { template } = parseInput(templateParams, request.params);
      const { position } = parseInput(countersignatureOrderChangeSchema, request.body);
      return settings.order.change(currentUser(request).email, template, position);
    },
  );
};
