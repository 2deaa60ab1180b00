import { SEAL_CHECK_MAX_BYTES, sealCheckSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { looksLikePdf } from '../documents/pdf-file.js';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { PDF_MIME } from '../http/send-file.js';
import { HttpError } from '../shared/http-error.js';
import type { SealedPdfCheck } from '../signature/seal/sealed-pdf-check.js';

export interface SealCheckRoutesDeps {
  guards: AuthGuards;
  check: SealedPdfCheck;
}

/** `POST /backend/signature/check` — Prüfen: is this PDF an unchanged sealed document of ours? */
export const sealCheckRoutes: FastifyPluginAsync<SealCheckRoutesDeps> = async (app, deps) => {
  // Only in this plugin: elsewhere a PDF body stays an unsupported media type. And here only a PDF
  // body is read: JSON, text or a form would reach the handler as something else than bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(PDF_MIME, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('*', (_request, _body, done) =>
    done(
      new HttpError(
        415,
        'unsupported_media_type',
        'Sende die Datei als PDF (Content-Type application/pdf); Prüfen kann nur das unterschriebene PDF.',
      ),
    ),
  );

  app.post(
    '/backend/signature/check',
    {
      // Before the body is read: nobody uploads 20 MB without a session.
      onRequest: deps.guards.session('signed-in'),
      bodyLimit: SEAL_CHECK_MAX_BYTES,
      schema: {
        tags: ['signature'],
        summary: 'Check whether a PDF is an unchanged sealed document of this installation',
        description: `The body is the PDF, at most ${SEAL_CHECK_MAX_BYTES / 1024 / 1024} MB. Anyone signed in may check.`,
        security: BEARER,
        consumes: [PDF_MIME],
        body: z.file().mime(PDF_MIME),
        response: {
          200: sealCheckSchema,
          ...errorAnswers([400, 401, 413, 415, 422], {
            400: 'An empty file',
            413: 'Larger than the limit',
            415: 'Not sent as application/pdf',
            422: 'The file is not a PDF',
          }),
        },
      },
    },
    async (request) => {
      // No body and no content type at all: nothing was sent.
      const pdf = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      if (pdf.length === 0) throw new HttpError(400, 'empty_file', 'Die Datei ist leer.');
      if (!looksLikePdf(pdf)) {
        throw new HttpError(
          422,
          'not_pdf',
          'Diese Datei ist kein PDF. Prüfen kann nur das unterschriebene PDF aus der Abschluss-E-Mail.',
        );
      }
      return deps.check.check(pdf);
    },
  );
};
