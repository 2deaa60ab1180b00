import {
  approvalBatchOutcomeSchema,
  approvalBatchSchema,
  approveBodySchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ApprovalSends } from '../approvals/approval-sends.js';
import { type BatchApprovals, NO_BATCH } from '../approvals/batch-approvals.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { requestActor } from '../http/request-actor.js';
import { notFound, parseInput } from '../shared/http-error.js';

export interface ApprovalBatchRoutesDeps {
  guards: AuthGuards;
  batches: BatchApprovals;
  sends: ApprovalSends;
}

const batchParams = z.object({
  batchId: z.uuid({ error: 'Diese Serie gibt es nicht.' }).describe('The batch id'),
});

/**
 * Freigabe of a batch (`/freigaben/serien/{batchId}`): its deals as one grouped request, approved whole
 * here or deal by deal through `/backend/approvals/{id}/approve` and `/decline`.
 */
export const approvalBatchRoutes: FastifyPluginAsync<ApprovalBatchRoutesDeps> = async (app, deps) => {
  const common = { tags: ['signature'], security: BEARER };

  app.get<{ Params: { batchId: string } }>(
    '/backend/approval-batches/:batchId',
    {
      preHandler: deps.guards.session('staff'),
      schema: {
        ...common,
        summary: 'A batch’s deals that need Freigabe, each with its request',
        params: batchParams,
        response: {
          200: approvalBatchSchema,
          ...errorAnswers([400, 401, 403, 404], { 404: 'No request of this batch the caller may see' }),
        },
      },
    },
    async (request) => deps.batches.batch(batchIdOf(request.params.batchId), currentUser(request)),
  );

  app.post<{ Params: { batchId: string } }>(
    '/backend/approval-batches/:batchId/approve',
    {
      // A Freigabe is the second pair of eyes of a person: no API client decides one.
      preHandler: deps.guards.session('staff', { personsOnly: true }),
      schema: {
        ...common,
        summary: 'Approve every open deal of a batch the caller may decide',
        description:
          'Each deal is decided on its own (its own four eyes and version check); deals decided meanwhile are counted as skipped. Approved envelopes are then sent in the starter’s name.',
        params: batchParams,
        body: approveBodySchema,
        response: {
          200: approvalBatchOutcomeSchema,
          ...errorAnswers([400, 401, 403, 404], {
            403: 'The caller started the batch (four eyes), or the rules do not name them as approver',
            404: 'No request of this batch the caller may see',
          }),
        },
      },
    },
    async (request) => {
      const { comment } = parseInput(approveBodySchema, request.body ?? {});
      const outcome = await deps.batches.approveAll(
        batchIdOf(request.params.batchId),
        currentUser(request),
        requestActor(request),
        comment || null,
      );
      deps.sends.sendSoon();
      return outcome;
    },
  );
};

/** The batch's id from the path; anything but a UUID names no batch (404, as an unknown one). */
function batchIdOf(value: string): string {
  if (!isUuid(value)) throw notFound(NO_BATCH);
  return value;
}
