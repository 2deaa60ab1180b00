import {
  CLAUSE_KEY_PATTERN,
  clauseComparisonSchema,
  clauseDetailSchema,
  clauseListSchema,
  clauseSettingsSchema,
  clauseTrialSchema,
  clauseVersionSchema,
  newClauseSchema,
  newClauseVersionSchema,
  parseVersionNumber,
  publishTemplateSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type ClauseLibrary, unknownClause } from '../clauses/clause-library.js';
import type { ClauseTrialRun } from '../clauses/clause-trial.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, noContent } from '../http/openapi.js';
import { HttpError, notFound, parseInput } from '../shared/http-error.js';

/** A version tried on a deal in every document placing it; `matchId` undefined: the default deal. */

export interface ClauseRoutesDeps {
  guards: AuthGuards;
  clauses: ClauseLibrary;
  trial: ClauseTrialRun;
}

const keyParams = z.object({
  key: z.string().describe('The clause key, as its tag names it, e.g. `haftung`'),
});
const versionParams = keyParams.extend({ version: z.string().describe('The version number') });
const trialBody = z
  .object(
    {
      matchId: z
        .string({ error: 'Die Match-ID muss ein Text sein, z. B. „PL-10001“.' })
        .trim()
        .min(1, 'Bitte eine Match-ID angeben oder das Feld weglassen.')
        .max(100, 'Die Match-ID ist zu lang.')
        .optional()
        .describe('The deal to try on; default: the demo match with the most values'),
    },
    { error: 'Bitte ein Objekt mit der Match-ID senden, z. B. {"matchId": "PL-10001"}.' },
  )
  .default({});

const NO_CLAUSE = { 404: 'No such clause or version' };

/**
 * The clause library for legal staff and administrators: clauses with their versions, checked when
 * saved, compared with the published text, tried on a deal, published and rolled back, and where each is
 * used (templates, running contracts).
 */
export const clauseRoutes: FastifyPluginAsync<ClauseRoutesDeps> = async (app, deps) => {
  const legal = { onRequest: deps.guards.session([2, 'administrator']) };

  app.get(
    '/backend/clauses',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Every clause with its published version and the templates placing it',
        security: BEARER,
        response: { 200: clauseListSchema, ...errorAnswers([401, 403]) },
      },
    },
    () => deps.clauses.list(),
  );

  app.post(
    '/backend/clauses',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Create a clause with its first version, a checked draft',
        security: BEARER,
        body: newClauseSchema,
        response: {
          201: clauseDetailSchema,
          ...errorAnswers([400, 401, 403, 409], { 409: 'A clause with this key exists' }),
        },
      },
    },
    async (request, reply) => {
      const input = parseInput(newClauseSchema, objectBody(request.body));
      return reply.code(201).send(await deps.clauses.create(input, currentUser(request).email));
    },
  );

  app.get<{ Params: { key: string } }>(
    '/backend/clauses/:key',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary:
          'A clause with its versions (newest first), the templates placing it and the contracts holding it',
        security: BEARER,
        params: keyParams,
        response: { 200: clauseDetailSchema, ...errorAnswers([401, 403, 404], NO_CLAUSE) },
      },
    },
    (request) => deps.clauses.detail(clauseKey(request.params.key)),
  );

  app.put<{ Params: { key: string } }>(
    '/backend/clauses/:key',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Rename a clause, or change whether a change of its text needs Freigabe',
        security: BEARER,
        params: keyParams,
        body: clauseSettingsSchema,
        response: { 200: clauseDetailSchema, ...errorAnswers([400, 401, 403, 404], NO_CLAUSE) },
      },
    },
    (request) => {
      const key = clauseKey(request.params.key);
      const settings = parseInput(clauseSettingsSchema, objectBody(request.body));
      return deps.clauses.updateSettings(key, settings, currentUser(request).email);
    },
  );

  app.delete<{ Params: { key: string } }>(
    '/backend/clauses/:key',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Delete a clause with every version, unless a template version places it',
        security: BEARER,
        params: keyParams,
        response: {
          204: noContent('Deleted'),
          ...errorAnswers([401, 403, 404, 409], {
            ...NO_CLAUSE,
            409: 'A stored template version places the clause; the message names the templates',
          }),
        },
      },
    },
    async (request, reply) => {
      await deps.clauses.delete(clauseKey(request.params.key), currentUser(request).email);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { key: string } }>(
    '/backend/clauses/:key/versions',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Save a new version, a draft; the server checks it at once',
        description:
          'The problems found are stored with the version; a version with any cannot be published.',
        security: BEARER,
        params: keyParams,
        body: newClauseVersionSchema,
        response: { 201: clauseVersionSchema, ...errorAnswers([400, 401, 403, 404], NO_CLAUSE) },
      },
    },
    async (request, reply) => {
      const key = clauseKey(request.params.key);
      const input = parseInput(newClauseVersionSchema, objectBody(request.body));
      return reply.code(201).send(await deps.clauses.addVersion(key, input, currentUser(request).email));
    },
  );

  app.post<{ Params: { key: string; version: string } }>(
    '/backend/clauses/:key/versions/:version/publish',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'Publish a checked draft, or an earlier version again (roll back)',
        security: BEARER,
        params: versionParams,
        body: publishTemplateSchema,
        response: {
          200: clauseDetailSchema,
          ...errorAnswers([400, 401, 403, 404, 409], {
            ...NO_CLAUSE,
            409: 'Someone published meanwhile, the version is already published, or it has problems',
          }),
        },
      },
    },
    (request) => {
      const key = clauseKey(request.params.key);
      const version = versionNumber(request.params.version);
      const body = parseInput(publishTemplateSchema, objectBody(request.body));
      return deps.clauses.publish(key, version, { actor: currentUser(request).email, ...body });
    },
  );

  app.get<{ Params: { key: string; version: string }; Querystring: { base?: string } }>(
    '/backend/clauses/:key/versions/:version/compare',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary: 'The text of the version against the published one (or `base`), per variant and language',
        security: BEARER,
        params: versionParams,
        querystring: z.object({ base: z.string().optional().describe('Another version to compare against') }),
        response: { 200: clauseComparisonSchema, ...errorAnswers([401, 403, 404], NO_CLAUSE) },
      },
    },
    (request) => {
      const key = clauseKey(request.params.key);
      const version = versionNumber(request.params.version);
      const { base } = request.query;
      return deps.clauses.compare(key, version, base === undefined ? undefined : versionNumber(base));
    },
  );

  app.post<{ Params: { key: string; version: string } }>(
    '/backend/clauses/:key/versions/:version/trial',
    {
      ...legal,
      schema: {
        tags: ['clauses'],
        summary:
          'Try the version on a deal: the variant chosen and its text in every document placing the clause',
        security: BEARER,
        params: versionParams,
        body: trialBody,
        response: {
          200: clauseTrialSchema,
          ...errorAnswers([400, 401, 403, 404], {
            400: 'A malformed match ID',
            404: 'No such clause, version or match',
          }),
        },
      },
    },
    async (request) => {
      const key = clauseKey(request.params.key);
      const version = versionNumber(request.params.version);
      const { matchId } = parseInput(trialBody, request.body ?? {});
      return deps.trial(key, version, matchId);
    },
  );
};

/**
 * The body as an object, or a 400 saying so in German: zod's own message for a missing or non-object body
 * would be English.
 */
function objectBody(body: unknown): object {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body;
  throw new HttpError(400, 'invalid_input', 'Die Eingabe ist ungültig.', {
    _: ['Bitte die Angaben als JSON-Objekt senden.'],
  });
}

/** A key that cannot be a clause's is no clause: 404, and never a query. */
function clauseKey(key: string): string {
  if (!CLAUSE_KEY_PATTERN.test(key)) throw unknownClause(key);
  return key;
}

function versionNumber(text: string): number {
  const version = parseVersionNumber(text);
  if (version === undefined) throw notFound(`Eine Version ${text} gibt es nicht.`);
  return version;
}
