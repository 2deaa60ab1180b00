import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GenerationRequest } from '../documents/generate-document.js';
import { currentUser } from './guards.js';

/** What every generation route (DOCX and e-signature) and the document check read from their request. */

type GenerationPath = { Params: { docId: string; matchId: string } };

/** The path of every generation call and of the document check. */
export const documentParamsSchema = z.object({
  docId: z
    .string()
    .describe('A key of the document catalogue, e.g. `angebot-wm` or `kuendigung-wm-k-confirmation`'),
  matchId: z.string().describe('The match ID, with or without `PL-`'),
});

/** The generation errors in the order `DocumentGeneration.order` checks them. */
export const generationErrors = {
  400: 'The dataList does not fit the key’s form, or the match ID is malformed',
  403: 'The permission level may not generate this key',
  404: 'Unknown key or match',
};

/** The generation a request asks for, its body still unchecked. */
export function generationRequest(request: FastifyRequest<GenerationPath>): GenerationRequest {
  return {
    docKey: request.params.docId,
    matchId: request.params.matchId,
    submitted: request.body,
    user: currentUser(request),
  };
}
