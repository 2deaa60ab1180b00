import {
  envelopeUrlSchema,
  esignatureDataListSchema,
  generationRequestSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { documentParamsSchema, generationErrors, generationRequest } from '../http/generation-api.js';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { requestActor } from '../http/request-actor.js';
import { HttpError } from '../shared/http-error.js';
import type { EnvelopeCreation } from '../signature/create-envelope.js';

export interface GenerateEnvelopeDeps {
  guards: AuthGuards;
  envelopeCreation: EnvelopeCreation;
}

/** The browser's key for one click on "generate": retries of the same click carry the same key. */
const IDEMPOTENCY_HEADER = 'idempotency-key';
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * `POST /backend/generateDocusign/{docId}/{matchId}`: generates the document and creates its envelope
 * at the signature provider as a draft, answering `{ data: <sender view URL> }`.
 */
export const generateEnvelopeRoutes: FastifyPluginAsync<GenerateEnvelopeDeps> = async (app, deps) => {
  app.post<{ Params: { docId: string; matchId: string } }>(
    '/backend/generateDocusign/:docId/:matchId',
    {
      preHandler: deps.guards.session('staff'),
      schema: {
        tags: ['documents'],
        summary: 'Generate a document and create its e-signature envelope as a draft',
        description:
          'Answers the URL of the sender view. A retry with the same `Idempotency-Key` is answered from ' +
          'the envelope the first request created.',
        security: BEARER,
        params: documentParamsSchema,
        headers: z.object({
          [IDEMPOTENCY_HEADER]: z
            .string()
            .regex(IDEMPOTENCY_KEY)
            .optional()
            .describe('One key per click on "generate"; retries of the click send it again'),
        }),
        body: generationRequestSchema.extend({ dataList: esignatureDataListSchema }),
        response: {
          200: envelopeUrlSchema.describe('The sender view to open'),
          ...errorAnswers([400, 401, 403, 404, 409, 422, 500, 503], {
            ...generationErrors,
            404: 'Unknown key or match, or the key is not one for e-signature',
            409: 'The envelope of this Idempotency-Key is still being created',
          }),
        },
      },
    },
    async (request) => {
      const url = await deps.envelopeCreation.create(
        { ...generationRequest(request), requestKey: idempotencyKey(request), actor: requestActor(request) },
        request.log,
      );
      return { data: url };
    },
  );
};

function idempotencyKey(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new HttpError(400, 'invalid_input', 'Der Idempotency-Key ist ungültig.');
  }
  return value;
}
