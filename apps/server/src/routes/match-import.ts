import { formatByteSize, MATCH_FILE_MAX_BYTES, matchImportSummarySchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { MatchFileImport } from '../admin/match-file-import.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { HttpError, parseInput } from '../shared/http-error.js';

export interface MatchImportRoutesDeps {
  guards: AuthGuards;
  imports: MatchFileImport;
}

const importQuery = z.object({
  filename: z.string().trim().min(1, 'Der Dateiname fehlt.').max(255),
  /** `check`: the dry run; `apply`: write. */
  mode: z.enum(['check', 'apply']),
  skipInvalid: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

/** The file goes as the raw body, so a 10,000-row file needs no multipart parsing and no copy. */
export const matchImportRoutes: FastifyPluginAsync<MatchImportRoutesDeps> = async (
  app,
  { guards, imports },
) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MATCH_FILE_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  // Fastify's own 413 says nothing of the file; the page shows this next to the file field.
  app.setErrorHandler((error, _request, reply) => {
    if ((error as { statusCode?: number }).statusCode === 413) {
      const message = `Die Datei ist zu groß: höchstens ${formatByteSize(MATCH_FILE_MAX_BYTES)}.`;
      return reply.status(413).send({ error: 'payload_too_large', message, fields: { file: [message] } });
    }
    throw error;
  });

  app.post(
    '/backend/admin/match-import',
    {
      // Before the body is read: nobody but an administrator gets 20 MB into the server's memory.
      onRequest: guards.session(['administrator']),
      bodyLimit: MATCH_FILE_MAX_BYTES,
      schema: {
        tags: ['administration'],
        summary:
          'Check (dry run) or import a match file (CSV or JSON, the format of `npm run matches:import`)',
        security: BEARER,
        querystring: importQuery,
        // Any content type: the file's name and content decide whether it is read as CSV or JSON.
        consumes: ['text/csv', 'application/json', 'application/octet-stream'],
        body: z.file().describe('The match file, CSV or JSON'),
        response: {
          200: matchImportSummarySchema,
          ...errorAnswers([400, 401, 403, 413]),
        },
      },
    },
    async (request) => {
      const { filename, mode, skipInvalid } = parseInput(importQuery, request.query);
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        const message = 'Die Datei ist leer.';
        throw new HttpError(400, 'invalid_file', message, { file: [message] });
      }
      return imports.run(
        currentUser(request).email,
        { name: filename, bytes: request.body },
        { apply: mode === 'apply', skipInvalid },
      );
    },
  );
};
