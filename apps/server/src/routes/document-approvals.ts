import {
  apiErrorSchema,
  approvalRequestSchema,
  approvalRequiredErrorSchema,
  DOCX_MIME_TYPE,
  documentApprovalSchema,
  parseVersionNumber,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { DocumentApprovalRequired, type DocumentApprovals } from '../approvals/document-approvals.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';
import { documentErrors, readableDocument } from '../http/stored-document-access.js';
import { HttpError, notFound, parseInput } from '../shared/http-error.js';

export interface DocumentApprovalRoutesDeps {
  guards: AuthGuards;
  documents: DocumentsRepository;
  approvals: DocumentApprovals;
}

const documentParams = z.object({ id: z.uuid().describe('The document id') });
const downloadQuery = z.object({
  version: z
    .string()
    .regex(/^\d+$/, 'Die Versionsnummer muss eine positive ganze Zahl sein.')
    .optional()
    .describe('The version to download; the newest without it'),
});

/**
 * Freigabe of a document downloaded rather than signed, and its download. The download a person saves
 * is `GET /backend/documents/{id}/download`, refused until a version that needs an approval has one; the
 * editor and the viewer load the document to show it through `…/file`, which stays open
 * (docs/decisions.md, „Freigabe of a downloaded document“).
 */
export const documentApprovalRoutes: FastifyPluginAsync<DocumentApprovalRoutesDeps> = async (app, deps) => {
  const { guards, documents, approvals } = deps;
  const staff = { preHandler: guards.session('staff') };
  const common = { tags: ['stored documents'], security: BEARER };

  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id/approval',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Whether the newest version needs an approval before its download, and its latest request',
        params: documentParams,
        response: { 200: documentApprovalSchema, ...errorAnswers([401, 403, 404, 503], documentErrors) },
      },
    },
    async (request) => {
      const document = await readableDocument(documents, request);
      return approvals.status(document.id, currentUser(request), request.log);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/documents/:id/approval',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Send the newest version for approval: the approvers are mailed, the download waits for it',
        params: documentParams,
        response: {
          201: approvalRequestSchema.describe('The new approval request'),
          ...errorAnswers([401, 403, 404, 409, 422, 503], {
            ...documentErrors,
            409: 'Nothing needs an approval (or it is released already), a request is waiting, or the document changed meanwhile',
            422: 'The CRM no longer has the match, or nobody but the caller may approve',
            503: 'The CRM cannot answer right now',
          }),
        },
      },
    },
    async (request, reply) => {
      const document = await readableDocument(documents, request);
      const created = await approvals.ask(document.id, currentUser(request), request.log);
      return reply.status(201).send(created);
    },
  );

  app.get<{ Params: { id: string }; Querystring: { version?: string } }>(
    '/backend/documents/:id/download',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Download a version of a stored document as DOCX, once it has the approval it needs',
        description:
          'The `X-Document-Version` header names the version. A document of a family sent for signature is approved through its envelope and downloads here as it is.',
        params: documentParams,
        querystring: downloadQuery,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The version, as an attachment'),
          ...errorAnswers([400, 401, 403, 404, 503], {
            ...documentErrors,
            400: 'The version is not a positive whole number',
            404: 'Unknown document or version',
          }),
          409: z
            .union([approvalRequiredErrorSchema, apiErrorSchema])
            .describe(
              'The version needs an approval it does not have (`approval_required`, with the reasons)',
            ),
        },
      },
    },
    async (request, reply) => {
      const document = await readableDocument(documents, request);
      const query = parseInput(downloadQuery, request.query ?? {});
      const version = query.version === undefined ? undefined : parseVersionNumber(query.version);
      if (query.version !== undefined && version === undefined) {
        throw new HttpError(400, 'invalid_input', 'Die Versionsnummer muss eine positive ganze Zahl sein.');
      }
      const content =
        version === undefined
          ? await documents.latestContent(document.id)
          : await documents
              .versionContent(document.id, version)
              .then((bytes) => (bytes ? { version, content: bytes } : undefined));
      if (!content) {
        throw notFound(
          version === undefined
            ? 'Dieses Dokument wurde nicht fertig erstellt.'
            : `Version ${version} dieses Dokuments gibt es nicht.`,
        );
      }
      try {
        await approvals.assertDownloadable(document.id, content.version, request.log);
      } catch (error) {
        if (error instanceof DocumentApprovalRequired) return reply.status(409).send(error.body);
        throw error;
      }
      reply.header('x-document-version', String(content.version));
      return sendFile(reply, content.content, document.file_name, DOCX_MIME_TYPE);
    },
  );
};
