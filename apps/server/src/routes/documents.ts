import {
  agreementDataListSchema,
  DOCX_MIME_TYPE,
  type DocumentCheck,
  documentCheckSchema,
  esignatureDataListSchema,
  type GenerationApprovalRequired,
  generationApprovalRequiredSchema,
  generationRequestSchema,
  offerDataListSchema,
  partnerOnlyDataListSchema,
  terminationDataListSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { DocumentApprovalRequired, type DocumentApprovals } from '../approvals/document-approvals.js';
import type { DocumentGeneration } from '../documents/generate-document.js';
import { documentParamsSchema, generationErrors, generationRequest } from '../http/generation-api.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';

export interface DocumentRoutesDeps {
  guards: AuthGuards;
  generation: DocumentGeneration;
  /**
   * Given where the answer is the final document (the editors `download` and `google`): a document whose
   * version needs an approval is stored but not answered. The built-in editor gates its own download.
   */
  approvalGate?: Pick<DocumentApprovals, 'assertDownloadable'>;
}

/**
 * DOCX generation: the checked request is stored, rendered and answered as a file. And the check a
 * form makes before: which values the chosen key's document would leave blank.
 */
export const documentRoutes: FastifyPluginAsync<DocumentRoutesDeps> = async (
  app,
  { guards, generation, approvalGate },
) => {
  for (const path of [
    '/backend/generateDocx/:docId/:matchId',
    '/backend/generateDocxOffer/:docId/:matchId',
  ]) {
    app.post<{ Params: { docId: string; matchId: string } }>(
      path,
      {
        preHandler: guards.session('staff'),
        schema: {
          tags: ['documents'],
          summary: 'Generate a document as DOCX',
          description:
            'Stores the document and answers the file; its id is in the `X-Document-Id` header. ' +
            'The dataList holds the fields of the key’s form. Where the server’s editor is `download` or ' +
            '`google`, a document that needs an approval (Freigabe) is stored but answered with 409 ' +
            '`approval_required`, its id and the reasons instead of the file; it is asked for with ' +
            '`POST /backend/documents/{id}/approval` and downloaded once released.',
          security: BEARER,
          params: documentParamsSchema,
          body: generationRequestSchema.extend({
            dataList: z.union([
              esignatureDataListSchema,
              agreementDataListSchema,
              partnerOnlyDataListSchema,
              terminationDataListSchema,
              offerDataListSchema,
            ]),
          }),
          response: {
            200: fileAnswer(DOCX_MIME_TYPE, 'The generated document'),
            ...errorAnswers([400, 401, 403, 404, 500, 503], generationErrors),
            409: generationApprovalRequiredSchema.describe(
              'Only with the editors `download` and `google`: the document was stored, but needs an approval before it is handed out (`approval_required`, with its id and the reasons)',
            ),
          },
        },
      },
      async (request, reply) => {
        const { id, fileName, content } = await generation.generate(generationRequest(request), request.log);
        reply.header('x-document-id', id);
        try {
          await approvalGate?.assertDownloadable(id, undefined, request.log);
        } catch (error) {
          if (!(error instanceof DocumentApprovalRequired)) throw error;
          const held: GenerationApprovalRequired = {
            ...error.body,
            message: `Dieses Dokument braucht eine Freigabe, bevor du es bekommst: ${error.body.reasonTexts.join('; ')}. Es ist gespeichert; sende es zur Freigabe.`,
            documentId: id,
          };
          return reply.status(409).send(held);
        }
        return sendFile(reply, content, fileName, DOCX_MIME_TYPE);
      },
    );
  }

  app.post<{ Params: { docId: string; matchId: string } }>(
    '/backend/documentCheck/:docId/:matchId',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['documents'],
        summary: 'Which match values the key’s document would leave blank',
        security: BEARER,
        params: documentParamsSchema,
        response: {
          200: documentCheckSchema.describe('The missing values; the document renders all the same'),
          ...errorAnswers([400, 401, 403, 404, 500, 503], {
            ...generationErrors,
            400: 'The match ID is malformed',
          }),
        },
      },
    },
    async (request): Promise<DocumentCheck> =>
      generation.check(
        { docKey: request.params.docId, matchId: request.params.matchId, user: currentUser(request) },
        request.log,
      ),
  );
};
