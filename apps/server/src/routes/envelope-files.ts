import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import {
  deletedFiles,
  envelopeErrors,
  envelopeParams,
  keptFileName,
  readableEnvelope,
} from '../http/envelope-access.js';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { PDF_MIME, sendFile, sendPdf } from '../http/send-file.js';
import { HttpError, notFound } from '../shared/http-error.js';
import type { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { sealedFileName } from '../signature/seal/completion-mail.js';

export interface EnvelopeFilesRoutesDeps {
  guards: AuthGuards;
  documents: DocumentsRepository;
  envelopes: EnvelopesRepository;
  pdf: PdfRenditions;
}

/**
 * The files of an envelope in the sender view (`/signatur/:id`): its document as DOCX and as PDF, and
 * once everyone has signed the completion certificate and the sealed PDF. Whoever may read the
 * envelope's document may download them; after a retention rule deleted the document they answer 410.
 */
export const envelopeFilesRoutes: FastifyPluginAsync<EnvelopeFilesRoutesDeps> = async (app, deps) => {
  const { guards, envelopes } = deps;
  const staff = { preHandler: guards.session('staff') };

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/document',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The document of an envelope as DOCX',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The document version the envelope carries'),
          ...errorAnswers([401, 403, 404, 410], { ...envelopeErrors, ...deletedFiles }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(envelopes, request);
      const fileName = keptFileName(envelope);
      const content = await envelopeDocument(deps.documents, envelope);
      return sendFile(reply, content, fileName, DOCX_MIME_TYPE);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/document.pdf',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The document of an envelope as PDF',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The PDF rendition, shown inline'),
          ...errorAnswers([401, 403, 404, 410], {
            ...envelopeErrors,
            ...deletedFiles,
            404: 'Unknown envelope, or no PDF rendition on this server',
          }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(envelopes, request);
      const fileName = keptFileName(envelope);
      const content = await envelopeDocument(deps.documents, envelope);
      return sendPdf(reply, request.log, deps.pdf, content, fileName);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/certificate',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The completion certificate of a completed envelope',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The certificate'),
          ...errorAnswers([401, 403, 404, 410], {
            ...envelopeErrors,
            ...deletedFiles,
            404: 'Unknown envelope, or not everyone has signed yet',
          }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(envelopes, request);
      const fileName = keptFileName(envelope);
      if (!envelope.certificate) {
        throw notFound('Das Abschlusszertifikat gibt es erst, wenn alle unterschrieben haben.');
      }
      const name = `${fileName.replace(/\.docx$/i, '')} - Abschlusszertifikat.pdf`;
      return sendFile(reply, envelope.certificate, name, PDF_MIME);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/signed-pdf',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The sealed PDF of a completed envelope: certificate, signatures and the document inside',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The PDF, sealed by the server (PAdES)'),
          ...errorAnswers([401, 403, 404, 409, 410], {
            ...envelopeErrors,
            ...deletedFiles,
            404: 'Unknown envelope, or not everyone has signed yet',
            409: 'Completed, but not sealed yet: ask again shortly',
          }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(envelopes, request);
      if (envelope.status !== 'completed') {
        throw notFound('Das unterschriebene PDF gibt es erst, wenn alle unterschrieben haben.');
      }
      const fileName = keptFileName(envelope);
      const sealed = await envelopes.sealedPdf(envelope.id);
      if (!sealed) {
        throw new HttpError(
          409,
          'not_sealed_yet',
          'Das unterschriebene PDF wird gerade versiegelt. Bitte versuche es in einer Minute noch einmal.',
        );
      }
      return sendFile(reply, sealed, sealedFileName(fileName), PDF_MIME);
    },
  );
};

/** The document version the envelope carries; it is never deleted while the envelope exists. */
async function envelopeDocument(
  documents: DocumentsRepository,
  envelope: { document_id: string; document_version: number },
): Promise<Uint8Array> {
  const content = await documents.versionContent(envelope.document_id, envelope.document_version);
  if (!content) throw notFound('Das Dokument dieses Umschlags gibt es nicht mehr.');
  return content;
}
