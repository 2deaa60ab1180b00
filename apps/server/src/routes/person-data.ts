import {
  personEraseRequestSchema,
  personEraseSchema,
  personExportSchema,
  personQuerySchema,
  personSearchSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { sendFile } from '../http/send-file.js';
import type { PersonData } from '../privacy/person-data.js';
import { notFound, parseInput } from '../shared/http-error.js';

const ZIP_MIME = 'application/zip';

/**
 * /verwaltung → Personendaten: administrators find a person, export what names them (Art. 15) and erase
 * it (Art. 17). The person travels in bodies, never in a URL, so no access log holds the name.
 */
export const personDataRoutes: FastifyPluginAsync<{ guards: AuthGuards; person: PersonData }> = async (
  app,
  { guards, person },
) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.post(
    '/backend/admin/person-data/search',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Where a person (e-mail address or name) is named, each hit with its place',
        body: personQuerySchema,
        response: { 200: personSearchSchema, ...errorAnswers([400, 401, 403]) },
      },
    },
    async (request) => {
      const { query } = parseInput(personQuerySchema, request.body);
      return person.find(currentUser(request).email, query);
    },
  );

  app.post(
    '/backend/admin/person-data/exports',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Export every record and file that names a person as one ZIP, downloadable for a day',
        body: personQuerySchema,
        response: { 201: personExportSchema, ...errorAnswers([400, 401, 403]) },
      },
    },
    async (request, reply) => {
      const { query } = parseInput(personQuerySchema, request.body);
      return reply.code(201).send(await person.exports.create(currentUser(request).email, query));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/admin/person-data/exports/:id',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Download an export while it is valid',
        params: z.object({ id: z.uuid().describe('The export') }),
        response: {
          200: fileAnswer(ZIP_MIME, 'The ZIP: person.json and the files'),
          ...errorAnswers([401, 403, 404, 410], { 410: 'The export has expired' }),
        },
      },
    },
    async (request, reply) => {
      if (!isUuid(request.params.id)) throw notFound('Diesen Export gibt es nicht (mehr).');
      const { content, fileName } = await person.exports.download(request.params.id);
      return sendFile(reply, content, fileName, ZIP_MIME);
    },
  );

  app.post(
    '/backend/admin/person-data/erase',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary:
          'Erase a person (by e-mail address or full name): what no retention duty holds at once; what a duty holds is listed',
        body: personEraseRequestSchema,
        response: {
          200: personEraseSchema,
          ...errorAnswers([400, 401, 403, 409], {
            409: 'Envelopes to the person still run; `fields.envelopes` names them',
          }),
        },
      },
    },
    async (request) => {
      const { email, name } = parseInput(personEraseRequestSchema, request.body);
      return person.erasure.erase(currentUser(request).email, email ? { email } : { name: name ?? '' });
    },
  );
};
