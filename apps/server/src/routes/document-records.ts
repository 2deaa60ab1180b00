import { deletionRecordSchema, documentReadSchema, normalizeMatchId } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { deletionsOfMatch } from '../privacy/deletion-records.js';
import type { ReadsLog } from '../privacy/reads-log.js';
import { notFound } from '../shared/http-error.js';

/**
 * What the history shows beside a match's documents: who read a document's files (legal staff and
 * administrators only), and what the retention rules deleted, with the rule and the SHA-256.
 */
export const documentRecordRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  db: Db;
  reads: ReadsLog;
}> = async (app, { guards, db, reads }) => {
  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id/reads',
    {
      preHandler: guards.session([2, 'administrator']),
      schema: {
        tags: ['stored documents'],
        summary: 'Who opened, downloaded or checked the files of a document, newest first',
        security: BEARER,
        params: z.object({ id: z.uuid().describe('The document') }),
        response: { 200: documentReadSchema.array(), ...errorAnswers([401, 403, 404]) },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound('Dieses Dokument gibt es nicht.');
      return reads.ofDocument(request.params.id);
    },
  );

  app.get<{ Params: { matchId: string } }>(
    '/backend/matches/:matchId/deletions',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['documents'],
        summary: 'The documents and envelope files of a match that were deleted, by which rule',
        security: BEARER,
        params: z.object({ matchId: z.string().describe('The match, e.g. PL-10001') }),
        response: { 200: deletionRecordSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async (request) => deletionsOfMatch(db, normalizeMatchId(request.params.matchId)),
  );
};
