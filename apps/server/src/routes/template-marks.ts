import {
  catalogueTemplates,
  parseVersionNumber,
  templateMarksChangeSchema,
  templateMarksSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { notFound, parseInput } from '../shared/http-error.js';
import type { TemplateMarksStore } from '../templates/template-marks.js';

const params = z.object({
  name: z.string().describe('The template file, e.g. `rahmenvertrag-de.docx`'),
  version: z.string().describe('The version number'),
});
type Params = { name: string; version: string };

/**
 * The paragraphs of a template version marked „Änderung braucht Freigabe“, for legal staff and
 * administrators as the rest of the template library.
 */
export const templateMarkRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  marks: TemplateMarksStore;
}> = async (app, { guards, marks }) => {
  const legal = { preHandler: guards.session([2, 'administrator']) };
  const common = { tags: ['templates'], security: BEARER, params };

  app.get<{ Params: Params }>(
    '/backend/templates/:name/versions/:version/marks',
    {
      ...legal,
      schema: {
        ...common,
        summary: 'A version’s paragraphs and those marked as needing Freigabe when changed',
        response: { 200: templateMarksSchema, ...errorAnswers([401, 403, 404]) },
      },
    },
    (request) => marks.get(...version(request.params)),
  );

  app.put<{ Params: Params }>(
    '/backend/templates/:name/versions/:version/marks',
    {
      ...legal,
      schema: {
        ...common,
        summary: 'Replace the paragraphs marked as needing Freigabe when changed',
        description:
          'A document generated from this version whose edited text changes a marked paragraph needs Freigabe (the rule `markedParagraphs`).',
        body: templateMarksChangeSchema,
        response: { 200: templateMarksSchema, ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    (request) => {
      const body = parseInput(templateMarksChangeSchema, request.body);
      return marks.set(...version(request.params), body.marks, currentUser(request).email);
    },
  );
};

function version(given: Params): [string, number] {
  if (!catalogueTemplates().includes(given.name)) throw notFound(`Eine Vorlage ${given.name} gibt es nicht.`);
  const number = parseVersionNumber(given.version);
  if (number === undefined) throw notFound(`Eine Version ${given.version} gibt es nicht.`);
  return [given.name, number];
}
