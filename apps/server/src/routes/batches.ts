import {
  batchCheckRequestSchema,
  batchSchema,
  batchSummarySchema,
  countersignatureChoiceSchema,
  DOCX_MIME_TYPE,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Batches } from '../batches/batches.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';
import { parseInput } from '../shared/http-error.js';

export interface BatchRoutesDeps {
  guards: AuthGuards;
  batches: Batches;
}

const batchParams = z.object({
  id: z.uuid({ error: 'Diese Serie gibt es nicht.' }).describe('The batch’s id'),
});
const itemParams = batchParams.extend({
  itemId: z.uuid({ error: 'Diesen Deal gibt es nicht.' }).describe('The id of one deal of the batch'),
});

/**
 * Serien: one document for many deals. Check (nothing is made), start, follow, retry the failed, cancel
 * the waiting, and a preview of a deal's document. A batch is visible to its starter only; who may start
 * one for a document is who may generate that document.
 */
export const batchRoutes: FastifyPluginAsync<BatchRoutesDeps> = async (app, { guards, batches }) => {
  const user = guards.session('staff');

  app.post(
    '/backend/batches',
    {
      preHandler: user,
      bodyLimit: 5 * 1024 * 1024,
      schema: {
        tags: ['batches'],
        summary: 'Check a batch: every deal loaded and validated; nothing is made yet',
        description:
          'The deals come as pasted match IDs or as a CSV/XLSX file (base64) with a Match-ID column and per-deal values. ' +
          'Problems of the input as a whole (an unknown column, a deal twice, more than 1,000 deals) answer 400 with one field per line (`Zeile N`); ' +
          'a deal that cannot be made is stored with verdict `cannot` and its reason.',
        security: BEARER,
        body: batchCheckRequestSchema,
        response: {
          201: batchSchema,
          ...errorAnswers([400, 401, 403, 503], {
            403: 'The user may not generate this document',
            503: 'The CRM cannot answer; nothing was stored',
          }),
        },
      },
    },
    async (request, reply) => {
      const checked = await batches.check(
        currentUser(request),
        parseInput(batchCheckRequestSchema, request.body),
        request.log,
      );
      return reply.status(201).send(checked);
    },
  );

  app.get(
    '/backend/batches/countersignature',
    {
      preHandler: user,
      schema: {
        tags: ['batches'],
        summary: 'Who may countersign the envelopes of a batch of this e-signature contract',
        security: BEARER,
        querystring: z.object({ docKey: z.string().min(1).max(100).describe('The catalogue key') }),
        response: {
          200: countersignatureChoiceSchema,
          ...errorAnswers([400, 401, 403], { 403: 'The user may not generate this document' }),
        },
      },
    },
    async (request) => {
      const { docKey } = parseInput(z.object({ docKey: z.string().min(1).max(100) }), request.query);
      return batches.countersignatureOptions(currentUser(request), docKey);
    },
  );

  app.get(
    '/backend/batches',
    {
      preHandler: user,
      schema: {
        tags: ['batches'],
        summary: 'The user’s batches, newest first',
        security: BEARER,
        response: { 200: z.array(batchSummarySchema), ...errorAnswers([401, 403]) },
      },
    },
    async (request) => batches.list(currentUser(request)),
  );

  app.get(
    '/backend/batches/:id',
    {
      preHandler: user,
      schema: {
        tags: ['batches'],
        summary: 'One batch with every deal and where it stands',
        security: BEARER,
        params: batchParams,
        response: { 200: batchSchema, ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request) => batches.get(currentUser(request), parseInput(batchParams, request.params).id),
  );

  const change = (
    path: string,
    summary: string,
    act: (batchId: string, request: Parameters<typeof currentUser>[0]) => ReturnType<Batches['get']>,
  ) =>
    app.post(
      `/backend/batches/:id/${path}`,
      {
        preHandler: user,
        schema: {
          tags: ['batches'],
          summary,
          security: BEARER,
          params: batchParams,
          response: { 200: batchSchema, ...errorAnswers([400, 401, 403, 404, 409]) },
        },
      },
      async (request) => act(parseInput(batchParams, request.params).id, request),
    );
  change('start', 'Start a checked batch: its documents are made from now on', (id, request) =>
    batches.start(currentUser(request), id),
  );
  change('retry', 'Try the failed deals again', (id, request) => batches.retry(currentUser(request), id));
  change('cancel', 'Cancel the deals that have not started', (id, request) =>
    batches.cancel(currentUser(request), id),
  );

  app.get(
    '/backend/batches/:id/items/:itemId/preview',
    {
      preHandler: user,
      schema: {
        tags: ['batches'],
        summary: 'A deal’s document as the run would make it, not stored',
        security: BEARER,
        params: itemParams,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The document, rendered and not stored'),
          ...errorAnswers([400, 401, 403, 404, 409]),
        },
      },
    },
    async (request, reply) => {
      const { id, itemId } = parseInput(itemParams, request.params);
      const { fileName, content } = await batches.preview(currentUser(request), id, itemId, request.log);
      return sendFile(reply, content, fileName, DOCX_MIME_TYPE);
    },
  );
};
