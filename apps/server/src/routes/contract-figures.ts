import { contractFiguresQuerySchema, contractFiguresSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { contractFigures } from '../contracts/figures.js';
import type { Db } from '../db/database.js';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';

export interface ContractFiguresRoutesDeps {
  guards: AuthGuards;
  db: Db;
  now: () => Date;
}

/** `/auswertung`: the figures of the contract work, for legal staff and leaders. */
export const contractFiguresRoutes: FastifyPluginAsync<ContractFiguresRoutesDeps> = async (app, deps) => {
  app.get(
    '/backend/contract-figures',
    {
      preHandler: guards(deps),
      schema: {
        tags: ['contracts'],
        summary:
          'The figures of the contract work: ends per month, lead times, where envelopes wait, declines',
        description:
          'Legal staff and leaders. Months are calendar months in Berlin; `months` reaches back for the lead times, ' +
          'approvals and declines (this month included) and ahead for the ends (from today). Durations: days from a ' +
          'document’s creation to its envelope’s first sending and its completion, hours from an approval request to ' +
          'its decision, each as median and 90th percentile.',
        security: BEARER,
        querystring: contractFiguresQuerySchema,
        response: {
          200: contractFiguresSchema,
          ...errorAnswers([400, 401, 403], { 400: 'An unknown company, or a number of months out of range' }),
        },
      },
    },
    async (request) =>
      contractFigures(deps.db, parseInput(contractFiguresQuerySchema, request.query), deps.now()),
  );
};

const guards = (deps: ContractFiguresRoutesDeps) => deps.guards.session([2, 3]);
