import { placeholderDictionarySchema, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import type { CompanyData } from '../templates/companies.js';
import { placeholderDictionary } from '../templates/placeholder-dictionary.js';

export interface TemplateLibraryRoutesDeps {
  guards: AuthGuards;
  companyData: CompanyData;
  /** The demo match the examples come from (the one with the most values); read when first asked for. */
  exampleMatch: () => Promise<ResolvedMatch>;
}

/** The template library for legal staff and administrators: for now, its placeholders. */
export const templateLibraryRoutes: FastifyPluginAsync<TemplateLibraryRoutesDeps> = async (app, deps) => {
  let example: Promise<ResolvedMatch | null> | undefined;
  const exampleMatch = () => {
    example ??= deps.exampleMatch().catch((error: unknown) => {
      app.log.warn({ err: error }, 'no demo match for the placeholder examples');
      return null;
    });
    return example;
  };

  app.get(
    '/backend/templates/placeholders',
    {
      preHandler: deps.guards.session([2, 'administrator']),
      schema: {
        tags: ['templates'],
        summary: 'Every placeholder a template may use, with its meaning and an example',
        security: BEARER,
        response: {
          200: placeholderDictionarySchema,
          ...errorAnswers([401, 403], { 403: 'Only legal staff and administrators' }),
        },
      },
    },
    async () => placeholderDictionary(await exampleMatch(), deps.companyData, new Date()),
  );
};
