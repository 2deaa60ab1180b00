import {
  decideSuggestionsSchema,
  documentDifferencesSchema,
  documentReviewSchema,
  nextRoundSchema,
  reviewAgreedSchema,
  reviewSchema,
  staffCommentSchema,
  startReviewSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mayReadDocument } from '../auth/document-access.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { documentErrors, readableDocument } from '../http/stored-document-access.js';
import type { DocumentDifferences } from '../reviews/document-differences.js';
import type { Reviews, StaffActor } from '../reviews/reviews.js';
import { forbidden, notFound, parseInput } from '../shared/http-error.js';

export interface ReviewRoutesDeps {
  guards: AuthGuards;
  documents: DocumentsRepository;
  reviews: Reviews;
  differences: DocumentDifferences;
}

const documentParams = z.object({ id: z.uuid().describe('The document') });
const reviewParams = z.object({ reviewId: z.uuid().describe('The negotiation') });
const reviewerParams = reviewParams.extend({ reviewerId: z.uuid().describe('A person of the counterparty') });
const reviewErrors = {
  403: 'The permission level may not open the document’s key',
  404: 'Unknown negotiation',
  409: 'The negotiation’s state does not allow it (a round still out, suggestions open, ended)',
};

/**
 * Negotiation on the company's side, on the editor page of a document: who may open a document (legal, and
 * whoever may generate its key) sends it for review, decides the counterparty's suggestions, comments,
 * renews or withdraws links and agrees on the version that goes out for signature.
 */
export const reviewRoutes: FastifyPluginAsync<ReviewRoutesDeps> = async (app, deps) => {
  const { guards, documents, reviews, differences } = deps;
  const staff = { preHandler: guards.session('staff') };
  const common = { tags: ['negotiation'], security: BEARER };

  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id/review',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The document’s negotiation with the counterparty: rounds, suggestions, comments',
        params: documentParams,
        response: { 200: documentReviewSchema, ...errorAnswers([401, 403, 404], documentErrors) },
      },
    },
    async (request) => {
      const document = await readableDocument(documents, request);
      return reviews.ofDocument(document.id);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/documents/:id/review',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Send the document’s latest version to the counterparty for review',
        description:
          'Each person gets a personal link (a one-time code by mail opens it), valid 30 days, and a reminder two days before the due date.',
        params: documentParams,
        body: startReviewSchema,
        response: {
          201: reviewSchema,
          ...errorAnswers([400, 401, 403, 404, 409], {
            ...documentErrors,
            409: 'Already in negotiation, agreed, or the document is not ready',
          }),
        },
      },
    },
    async (request, reply) => {
      const document = await readableDocument(documents, request);
      const input = parseInput(startReviewSchema, request.body);
      return reply.status(201).send(await reviews.start(document.id, input, actorOf(request)));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id/differences',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The paragraphs of the latest version that differ from what the template made for this deal',
        params: documentParams,
        response: { 200: documentDifferencesSchema, ...errorAnswers([401, 403, 404], documentErrors) },
      },
    },
    async (request) => differences.of(await readableDocument(documents, request)),
  );

  const reviewOf = async (request: FastifyRequest<{ Params: { reviewId: string } }>) => {
    const id = request.params.reviewId;
    if (!isUuid(id)) throw notFound('Diese Verhandlung gibt es nicht.');
    const document = await reviews.documentOf(id);
    if (!mayReadDocument(currentUser(request), document.doc_key)) {
      throw forbidden('Diesen Vertrag darfst du mit deiner Berechtigung nicht sehen.');
    }
    return id;
  };

  app.post<{ Params: { reviewId: string } }>(
    '/backend/reviews/:reviewId/rounds',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Send the next round: the latest version, once every suggestion is decided',
        params: reviewParams,
        body: nextRoundSchema,
        response: { 201: reviewSchema, ...errorAnswers([400, 401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request, reply) => {
      const id = await reviewOf(request);
      const input = parseInput(nextRoundSchema, request.body);
      return reply.status(201).send(await reviews.nextRound(id, input, actorOf(request)));
    },
  );

  app.post<{ Params: { reviewId: string } }>(
    '/backend/reviews/:reviewId/decisions',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Accept or reject the counterparty’s suggestions; the result is the document’s next version',
        params: reviewParams,
        body: decideSuggestionsSchema,
        response: {
          200: reviewSchema,
          ...errorAnswers([400, 401, 403, 404, 409], {
            ...reviewErrors,
            409: 'A newer version was saved meanwhile, a suggestion is decided already, or nothing came back',
          }),
        },
      },
    },
    async (request) => {
      const id = await reviewOf(request);
      return reviews.decide(id, parseInput(decideSuggestionsSchema, request.body), actorOf(request));
    },
  );

  app.post<{ Params: { reviewId: string } }>(
    '/backend/reviews/:reviewId/comments',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Comment or reply: for the counterparty, or internal (never shown to them)',
        params: reviewParams,
        body: staffCommentSchema,
        response: { 201: reviewSchema, ...errorAnswers([400, 401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request, reply) => {
      const id = await reviewOf(request);
      const input = parseInput(staffCommentSchema, request.body);
      return reply.status(201).send(await reviews.comment(id, input, actorOf(request)));
    },
  );

  app.post<{ Params: { reviewId: string; reviewerId: string } }>(
    '/backend/reviews/:reviewId/reviewers/:reviewerId/renew',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Mail a person of the counterparty a new link; the old one stops working',
        params: reviewerParams,
        response: { 200: reviewSchema, ...errorAnswers([401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request) => reviews.renewLink(await reviewOf(request), reviewerIdOf(request.params.reviewerId)),
  );

  app.post<{ Params: { reviewId: string; reviewerId: string } }>(
    '/backend/reviews/:reviewId/reviewers/:reviewerId/withdraw',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Withdraw a person’s link (410 for them from now on); they are told',
        params: reviewerParams,
        response: { 200: reviewSchema, ...errorAnswers([401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request) =>
      reviews.withdrawReviewer(await reviewOf(request), reviewerIdOf(request.params.reviewerId)),
  );

  app.post<{ Params: { reviewId: string } }>(
    '/backend/reviews/:reviewId/withdraw',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'End the negotiation; a round still out is withdrawn',
        params: reviewParams,
        response: { 200: reviewSchema, ...errorAnswers([401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request) => reviews.withdraw(await reviewOf(request)),
  );

  app.post<{ Params: { reviewId: string } }>(
    '/backend/reviews/:reviewId/agree',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'Agree on the latest version; answers the envelope draft it goes out for signature with',
        params: reviewParams,
        response: { 200: reviewAgreedSchema, ...errorAnswers([401, 403, 404, 409], reviewErrors) },
      },
    },
    async (request) => reviews.agree(await reviewOf(request), actorOf(request)),
  );
};

function actorOf(request: FastifyRequest): StaffActor {
  const user = currentUser(request);
  return { email: user.email, name: user.name };
}

function reviewerIdOf(value: string): string {
  if (!isUuid(value)) throw notFound('Diese Person hat keinen offenen Link in dieser Verhandlung.');
  return value;
}
