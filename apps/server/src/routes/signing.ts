import {
  DOCX_MIME_TYPE,
  declineEnvelopeSchema,
  SIGNING_CODE_ERRORS,
  SIGNING_LINK_ERRORS,
  SIGNING_TOKEN_HEADER,
  type SigningView,
  signEnvelopeSchema,
  signingViewSchema,
  verifySigningCodeSchema,
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
import { SignerVerificationProblem } from '../signature/verification/verification-problem.js';

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
/** Where the signer must confirm a code first (SIGNING_OTP), the document and the answers wait for it. */
const codedErrors = {
  ...linkErrors,
  403: 'The signer has not confirmed the code mailed to them yet (`verification_required`)',
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
    async (request): Promise<SigningView> => openedView(request),
  );

  async function openedView(request: FastifyRequest): Promise<SigningView> {
    const view = await linkAction(() => signing().openLink(signingToken(request), clientActor(request)));
    return { ...view, pdfAvailable: await deps.pdf.available() };
  }

  signer.post(
    '/backend/signing/code',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'Mail the signer a new code to confirm before the document opens',
        description:
          'The code (6 digits) goes to the address the envelope names and works for 10 minutes; a new one ' +
          'replaces it, at most one a minute. Answers the signing view, never the code. Without a code to ' +
          'confirm (SIGNING_OTP, or confirmed already) nothing is mailed.',
        security: PUBLIC,
        headers: signerHeaders,
        response: {
          200: signingViewSchema.describe('The signing view with the code step’s state'),
          ...errorAnswers([404, 409, 410, 429], {
            ...linkErrors,
            429: 'Too many requests from this address, a new code within 60 s of the last (`code_resend_too_early`), or the link is locked after 5 wrong codes (`verification_locked`)',
          }),
        },
      },
    },
    async (request): Promise<SigningView> => {
      await linkAction(() => signing().codeStep.sendCode(signingToken(request)));
      return openedView(request);
    },
  );

  signer.post(
    '/backend/signing/verify',
    {
      ...limited,
      schema: {
        tags: ['signing'],
        summary: 'Confirm the code from the mail; then the document opens for signing',
        security: PUBLIC,
        headers: signerHeaders,
        body: verifySigningCodeSchema,
        response: {
          200: signingViewSchema.describe('The signing view, the code confirmed'),
          ...errorAnswers([400, 404, 409, 410, 429], {
            ...linkErrors,
            400: 'Not 6 digits (`invalid_input`), a wrong code (`code_wrong`), or no code that still works (`code_expired`)',
            429: 'Too many requests from this address, or the link is locked for 15 minutes after 5 wrong codes (`verification_locked`)',
          }),
        },
      },
    },
    async (request): Promise<SigningView> => {
      const { code } = parseInput(verifySigningCodeSchema, request.body);
      await linkAction(() => signing().codeStep.verify(signingToken(request), code, clientActor(request)));
      return openedView(request);
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
          ...errorAnswers([403, 404, 409, 410, 429], codedErrors),
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
          ...errorAnswers([403, 404, 409, 410, 429], {
            ...codedErrors,
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
          ...errorAnswers([400, 403, 404, 409, 410, 429], codedErrors),
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
          ...errorAnswers([400, 403, 404, 409, 410, 429], codedErrors),
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
    if (error instanceof SignerVerificationProblem) {
      throw new HttpError(SIGNING_CODE_ERRORS[error.code], error.code, error.message);
    }
    if (error instanceof SigningInputProblem) throw new HttpError(400, 'invalid_input', error.message);
    throw error;
  }
}
