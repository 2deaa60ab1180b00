import {
  DOCX_MIME_TYPE,
  REVIEW_RETURN_SOURCE_HEADER,
  REVIEW_TOKEN_HEADER,
  type ReviewerView,
  reviewerCommentSchema,
  reviewerViewSchema,
  SIGNING_CODE_ERRORS,
  verifySigningCodeSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorAnswers, fileAnswer, PUBLIC } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';
import { RETURNED_FILE_MAX_BYTES } from '../reviews/returned-word-file.js';
import type { ReturnedRound, ReviewLinkActions } from '../reviews/review-link-actions.js';
import { HttpError, parseInput } from '../shared/http-error.js';
import { SignerVerificationProblem } from '../signature/verification/verification-problem.js';

export interface ReviewLinkRoutesDeps {
  actions: ReviewLinkActions;
  /** Limits the reviewer routes per client address: they are public and carry a secret. */
  rateLimit: { max: number; timeWindow: string };
}

const reviewerHeaders = z.object({
  [REVIEW_TOKEN_HEADER]: z.string().describe('The reviewer’s link token from their e-mail'),
});
const linkErrors = {
  404: 'Unknown link (`link_invalid`)',
  410: 'The link expired (`link_expired`) or was withdrawn (`link_withdrawn`)',
};
const codedErrors = {
  ...linkErrors,
  403: 'The reviewer has not confirmed the code mailed to them yet (`verification_required`)',
  409: 'The round was sent back already (`round_returned`)',
};

/**
 * The counterparty's review page (`/vertragspruefung`): no account; the link token comes in a header,
 * never in a URL that ends up in logs. The code step is the signing page's.
 */
export const reviewLinkRoutes: FastifyPluginAsync<ReviewLinkRoutesDeps> = async (
  app,
  { actions, rateLimit },
) => {
  const limited = { config: { rateLimit } };
  const common = { tags: ['negotiation'], security: PUBLIC, headers: reviewerHeaders };

  app.get(
    '/backend/review',
    {
      ...limited,
      schema: {
        ...common,
        summary: 'What the counterparty sees behind their review link',
        response: { 200: reviewerViewSchema, ...errorAnswers([404, 410, 429], linkErrors) },
      },
    },
    async (request): Promise<ReviewerView> => linkAction(() => actions.open(reviewToken(request))),
  );

  app.post(
    '/backend/review/code',
    {
      ...limited,
      schema: {
        ...common,
        summary: 'Mail the reviewer a code to confirm before the contract opens',
        response: {
          200: reviewerViewSchema,
          ...errorAnswers([404, 410, 429], {
            ...linkErrors,
            429: 'Too many requests, a new code within 60 s of the last, or locked after 5 wrong codes',
          }),
        },
      },
    },
    async (request): Promise<ReviewerView> => linkAction(() => actions.sendCode(reviewToken(request))),
  );

  app.post(
    '/backend/review/verify',
    {
      ...limited,
      schema: {
        ...common,
        summary: 'Confirm the code from the mail; then the contract opens',
        body: verifySigningCodeSchema,
        response: {
          200: reviewerViewSchema,
          ...errorAnswers([400, 404, 410, 429], {
            ...linkErrors,
            400: 'The code is wrong or no longer works',
            429: 'Locked after 5 wrong codes',
          }),
        },
      },
    },
    async (request): Promise<ReviewerView> => {
      const { code } = parseInput(verifySigningCodeSchema, request.body);
      return linkAction(() => actions.verify(reviewToken(request), code));
    },
  );

  app.get(
    '/backend/review/document',
    {
      ...limited,
      schema: {
        ...common,
        summary: 'The version the counterparty was sent, as DOCX',
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The contract as sent'),
          ...errorAnswers([403, 404, 410, 429], codedErrors),
        },
      },
    },
    async (request, reply) => {
      const file = await linkAction(() => actions.document(reviewToken(request)));
      return sendFile(reply, file.content, file.fileName, DOCX_MIME_TYPE);
    },
  );

  app.post(
    '/backend/review/comments',
    {
      ...limited,
      schema: {
        ...common,
        summary: 'Comment on a passage, or reply to a comment of the company',
        body: reviewerCommentSchema,
        response: { 200: reviewerViewSchema, ...errorAnswers([400, 403, 404, 409, 410, 429], codedErrors) },
      },
    },
    async (request): Promise<ReviewerView> => {
      const input = parseInput(reviewerCommentSchema, request.body);
      return linkAction(() => actions.comment(reviewToken(request), input));
    },
  );

  // The returned Word file is the body, in this plugin only.
  app.addContentTypeParser(DOCX_MIME_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    '/backend/review/return',
    {
      ...limited,
      // A little over the file's limit, so that a file just too large gets the file's own German answer.
      bodyLimit: RETURNED_FILE_MAX_BYTES + 1024 * 1024,
      schema: {
        ...common,
        summary: 'Send the round back: the changes as a Word file, or only the comments',
        description:
          'The body is the DOCX (suggested in the browser, or the counterparty’s own file; its differences to the version sent become tracked changes labelled as theirs), or empty with source `none`. Macros, outside content, OLE objects, zip bombs and DOCTYPEs are refused (422).',
        headers: reviewerHeaders.extend({
          [REVIEW_RETURN_SOURCE_HEADER]: z
            .enum(['browser', 'upload', 'none'])
            .describe('Where the changes come from'),
          'x-file-name': z.string().optional().describe('The uploaded file’s name, URI-encoded'),
        }),
        consumes: [DOCX_MIME_TYPE],
        response: {
          200: reviewerViewSchema,
          ...errorAnswers([400, 403, 404, 409, 410, 413, 415, 422, 429], {
            ...codedErrors,
            400: 'No file where one was announced',
            413: 'Larger than 10 MB',
            415: 'Not sent as a DOCX',
            422: 'The file is refused (not a Word document, macros, outside content, OLE objects, zip bomb, DOCTYPE)',
          }),
        },
      },
    },
    async (request): Promise<ReviewerView> => {
      const returned = returnedRound(request);
      return linkAction(() => actions.returnRound(reviewToken(request), returned));
    },
  );
};

function returnedRound(request: FastifyRequest): ReturnedRound {
  const source = request.headers[REVIEW_RETURN_SOURCE_HEADER];
  if (source === 'none') return { source: 'none' };
  if (source !== 'browser' && source !== 'upload') {
    throw new HttpError(400, 'invalid_input', 'Bitte geben Sie an, woher die Änderungen kommen.');
  }
  const content = request.body;
  if (!Buffer.isBuffer(content)) {
    throw new HttpError(415, 'unsupported_media_type', 'Bitte senden Sie ein Word-Dokument (.docx).');
  }
  if (content.byteLength === 0) throw new HttpError(400, 'invalid_input', 'Die Datei ist leer.');
  const named = request.headers['x-file-name'];
  let fileName = 'Vertrag.docx';
  if (source === 'upload' && typeof named === 'string') {
    try {
      fileName = decodeURIComponent(named).slice(0, 255);
    } catch {
      fileName = named.slice(0, 255);
    }
  }
  return { source, fileName, content };
}

function reviewToken(request: FastifyRequest): string {
  const value = request.headers[REVIEW_TOKEN_HEADER];
  return typeof value === 'string' ? value.trim() : '';
}

async function linkAction<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SignerVerificationProblem) {
      throw new HttpError(SIGNING_CODE_ERRORS[error.code], error.code, error.message);
    }
    throw error;
  }
}
