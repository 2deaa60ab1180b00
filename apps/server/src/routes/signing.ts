import {
  DOCX_MIME_TYPE,
  declineEnvelopeSchema,
  SIGNING_LINK_ERRORS,
  SIGNING_TOKEN_HEADER,
  type SigningView,
  signEnvelopeSchema,
  signingViewSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { errorAnswers, fileAnswer, PUBLIC } from '../http/openapi.js';
import { clientActor } from '../http/request-actor.js';
import { PDF_MIME, sendFile, sendPdf } from '../http/send-file.js';
import { HttpError, notFound, parseInput } from '../shared/http-error.js';
import type { BuiltinSigning } from '../signature/builtin-signing.js';
import { SigningInputProblem, SigningLinkProblem } from '../signature/signing-problems.js';

export interface SigningRoutesDeps {
  /** Present when built-in signing is the provider; with DocuSign these routes answer 404. */
  signing: BuiltinSigning | undefined;
  pdf: PdfRenditions;
  /** Limits the signer routes per client address: they are public and carry a secret. */
  rateLimit: { max: number; timeWindow: string };
}

const signerHeaders = z.object({
  [SIGNING_TOKEN_HEADER]: z.string().describe('The signer’s link token from their e-mail'),
});
const linkErrors = {
  404: 'Unknown or withdrawn link, or signing happens at DocuSign',
  409: 'The envelope is closed',
  410: 'The link has expired or was used',
};

/**
 * The signing pages' routes (`/unterschreiben`): signers have no account; their link token comes in a
 * header, never in a URL that ends up in logs.
 */
export const signingRoutes: FastifyPluginAsync<SigningRoutesDeps> = async (signer, deps) => {
  const limited = { config: { rateLimit: deps.rateLimit } };
  const signing = () => {
    if (!deps.signing) throw notFound('Unterschriften laufen über DocuSign.');
    return deps.signing;
  };

  signer.get(
    '/backend/signing',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'What the signer sees behind their link',
        security: PUBLIC,
        headers: signerHeaders,
        response: {
          200: signingViewSchema.describe('The envelope as the signer sees it'),
          ...errorAnswers([404, 409, 410, 429], linkErrors),
        },
      },
    },
    async (request): Promise<SigningView> => {
      const view = await linkAction(() => signing().openLink(signingToken(request), clientActor(request)));
      return { ...view, pdfAvailable: await deps.pdf.available() };
    },
  );

  signer.get(
    '/backend/signing/document',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'The document to sign as DOCX',
        security: PUBLIC,
        headers: signerHeaders,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The document'),
          ...errorAnswers([404, 409, 410, 429], linkErrors),
        },
      },
    },
    async (request, reply) => {
      const file = await linkAction(() => signing().linkDocument(signingToken(request)));
      return sendFile(reply, file.content, file.fileName, DOCX_MIME_TYPE);
    },
  );

  signer.get(
    '/backend/signing/document.pdf',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'The document to sign as PDF',
        security: PUBLIC,
        headers: signerHeaders,
        response: {
          200: fileAnswer(PDF_MIME, 'The PDF rendition, shown inline'),
          ...errorAnswers([404, 409, 410, 429], {
            ...linkErrors,
            404: 'Unknown or withdrawn link, or no PDF rendition on this server',
          }),
        },
      },
    },
    async (request, reply) => {
      const file = await linkAction(() => signing().linkDocument(signingToken(request)));
      return sendPdf(reply, request.log, deps.pdf, file.content, file.fileName);
    },
  );

  signer.post(
    '/backend/signing/sign',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'Sign the document',
        security: PUBLIC,
        headers: signerHeaders,
        body: signEnvelopeSchema,
        response: {
          200: signingViewSchema.describe('The envelope after signing'),
          ...errorAnswers([400, 404, 409, 410, 429], linkErrors),
        },
      },
    },
    async (request): Promise<SigningView> => {
      const input = parseInput(signEnvelopeSchema, request.body);
      const view = await linkAction(() => signing().sign(signingToken(request), input, clientActor(request)));
      return { ...view, pdfAvailable: await deps.pdf.available() };
    },
  );

  signer.post(
    '/backend/signing/decline',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'Decline to sign, with a reason',
        security: PUBLIC,
        headers: signerHeaders,
        body: declineEnvelopeSchema,
        response: {
          200: signingViewSchema.describe('The envelope after declining'),
          ...errorAnswers([400, 404, 409, 410, 429], linkErrors),
        },
      },
    },
    async (request): Promise<SigningView> => {
      const { reason } = parseInput(declineEnvelopeSchema, request.body);
      const view = await linkAction(() =>
        signing().decline(signingToken(request), reason, clientActor(request)),
      );
      return { ...view, pdfAvailable: await deps.pdf.available() };
    },
  );
};

function signingToken(request: FastifyRequest): string {
  const value = request.headers[SIGNING_TOKEN_HEADER];
  return typeof value === 'string' ? value.trim() : '';
}

async function linkAction<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SigningLinkProblem) {
      throw new HttpError(SIGNING_LINK_ERRORS[error.code], error.code, error.message);
    }
    if (error instanceof SigningInputProblem) throw new HttpError(400, 'invalid_input', error.message);
    throw error;
  }
}
