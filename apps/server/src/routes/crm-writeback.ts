import { crmWritebacksSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer, noContent, PUBLIC } from '../http/openapi.js';
import { PDF_MIME, sendFile } from '../http/send-file.js';
import {
  type CrmSealedPdfAccess,
  SEALED_PDF_GRANT_DAYS,
  SEALED_PDF_TOKEN_HEADER,
} from '../integrations/crm-writeback/crm-sealed-pdf.js';
import type { CrmWritebacks } from '../integrations/crm-writeback/crm-writebacks.js';
import { HttpError, parseInput } from '../shared/http-error.js';

const writebackParams = z.object({
  deliveryId: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'Diese CRM-Rückmeldung gibt es nicht.')
    .describe('The write-back’s id'),
});

const envelopeParams = z.object({
  envelopeId: z.uuid({ error: 'Diesen Umschlag gibt es nicht.' }).describe('The envelope’s id'),
});
const tokenHeaders = z.object({
  [SEALED_PDF_TOKEN_HEADER]: z
    .string()
    .describe(
      `The token the write-back of the envelope’s completion carried (\`sealedPdf.headers\`), valid for ${SEALED_PDF_GRANT_DAYS} days`,
    ),
});

/**
 * /verwaltung → Integrationen: the CRM write-backs given up, and `Erneut senden`, for administrators
 * only; and the sealed PDF for the HTTP CRM, with the token its write-back carried instead of a sign-in.
 */
export const crmWritebackRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  writebacks: CrmWritebacks;
  sealedPdfs: CrmSealedPdfAccess;
  /** Whether a write-back to the CRM is configured. */
  configured: boolean;
  /** After `Erneut senden`: a write-back run starts without waiting for the next. */
  deliverSoon: () => void;
}> = async (app, { guards, writebacks, sealedPdfs, configured, deliverSoon }) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/crm-writebacks',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The CRM write-backs given up (refused by the CRM or unreachable for three days)',
        response: { 200: crmWritebacksSchema, ...errorAnswers([401, 403]) },
      },
    },
    async () => ({ configured, givenUp: await writebacks.givenUp() }),
  );

  app.post(
    '/backend/admin/crm-writebacks/:deliveryId/resend',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Erneut senden: write a given-up status change to the CRM again, with three fresh days',
        params: writebackParams,
        response: {
          204: noContent('Due again'),
          ...errorAnswers([400, 401, 403, 404, 409], {
            409: 'Not given up (still due, or in the CRM), a later status of its envelope is in the CRM already, or no write-back is configured',
          }),
        },
      },
    },
    async (request, reply) => {
      const { deliveryId } = parseInput(writebackParams, request.params);
      // Due again without a writer, it would wait for ever.
      if (!configured)
        throw new HttpError(
          409,
          'crm_not_configured',
          'Es ist kein Rückschreiben ins CRM eingerichtet: Die Rückmeldung kann nicht erneut gesendet werden.',
        );
      await writebacks.resend(currentUser(request).email, deliveryId);
      deliverSoon();
      return reply.status(204).send();
    },
  );

  app.get(
    '/backend/crm/envelopes/:envelopeId/sealed-pdf',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'The sealed PDF of an envelope whose completion was written back to the HTTP CRM, with the token of that write-back',
        security: PUBLIC,
        params: envelopeParams,
        headers: tokenHeaders,
        response: {
          200: fileAnswer(PDF_MIME, 'The sealed PDF; its SHA-256 is the one the write-back named'),
          ...errorAnswers([400, 401, 404], {
            401: 'No token, a token no write-back of this envelope’s completion carried, or an expired one',
            404: 'The sealed PDF was deleted by a retention rule',
          }),
        },
      },
    },
    async (request, reply) => {
      const { envelopeId } = parseInput(envelopeParams, request.params);
      const token = request.headers[SEALED_PDF_TOKEN_HEADER];
      const { pdf, fileName } = await sealedPdfs.sealedPdf(
        envelopeId,
        typeof token === 'string' ? token : undefined,
      );
      return sendFile(reply, pdf, fileName, PDF_MIME);
    },
  );
};
