import {
  approvalComparisonSchema,
  approvalListQuerySchema,
  approvalListSchema,
  approvalRequestSchema,
  approveBodySchema,
  DOCX_MIME_TYPE,
  declineBodySchema,
  sendAgainBodySchema,
  sendEnvelopeSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApprovalEvaluation } from '../approvals/approval-evaluation.js';
import { paragraphsOf } from '../approvals/approval-evaluation.js';
import type { ApprovalQueries } from '../approvals/approval-queries.js';
import type { ApprovalRequests } from '../approvals/approval-requests.js';
import { type ApprovalSends, assertMaySendAgain } from '../approvals/approval-sends.js';
import type { BatchApprovals } from '../approvals/batch-approvals.js';
import { mayManageEnvelope, mayReadDocument } from '../auth/document-access.js';
import type { Db } from '../db/database.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { requestActor } from '../http/request-actor.js';
import { PDF_MIME, sendFile, sendPdf } from '../http/send-file.js';
import { forbidden, notFound, parseInput } from '../shared/http-error.js';
import type { Countersignature } from '../signature/countersignature.js';
import type { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { compareParagraphs } from '../templates/paragraph-diff.js';

export interface ApprovalRoutesDeps {
  guards: AuthGuards;
  requests: ApprovalRequests;
  queries: ApprovalQueries;
  /** `/freigaben` lists a batch's deals as one grouped request. */
  batches: BatchApprovals;
  sends: ApprovalSends;
  envelopes: EnvelopesRepository;
  documents: DocumentsRepository;
  evaluation: ApprovalEvaluation;
  /** The direct send's check of the countersignatory, made before a send request is stored. */
  countersignature: Countersignature;
  db: Db;
  pdf: PdfRenditions;
}

const idParams = z.object({ id: z.uuid().describe('The approval request id') });
const envelopeParams = z.object({ id: z.uuid().describe('The envelope id') });
const requestErrors = {
  403: 'Neither its requester nor one of its approvers',
  404: 'Unknown approval request',
};

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * Freigabe: `/freigaben`'s requests and decisions, and the sender view's `Zur Freigabe senden`. The
 * rules are applied on the server (approvals/); these routes guard, parse and answer.
 */
export const approvalRoutes: FastifyPluginAsync<ApprovalRoutesDeps> = async (app, deps) => {
  const { guards, requests, queries } = deps;
  const staff = { preHandler: guards.session('staff') };
  // A Freigabe is the second pair of eyes of a person: no API client decides one, whatever its level.
  const staffInPerson = { preHandler: guards.session('staff', { personsOnly: true }) };
  const common = { tags: ['signature'], security: BEARER };

  async function visibleRequest(request: IdRequest) {
    const id = request.params.id;
    const found = isUuid(id) ? await queries.find(id) : undefined;
    if (!found) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
    if (!queries.maySee(currentUser(request), found.request, found.decision)) {
      throw forbidden('Diese Freigabe-Anfrage darfst du nicht sehen.');
    }
    return found.request;
  }

  app.get(
    '/backend/approvals',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The approval requests the caller asked for, may decide or decided',
        description: 'A batch’s deals are listed once, as a group in `batches`, not among `requests`.',
        querystring: approvalListQuerySchema,
        response: { 200: approvalListSchema, ...errorAnswers([400, 401, 403]) },
      },
    },
    async (request) => {
      const query = parseInput(approvalListQuerySchema, request.query ?? {});
      return deps.batches.list(currentUser(request), query);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/approvals/:id',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'One approval request',
        params: idParams,
        response: { 200: approvalRequestSchema, ...errorAnswers([401, 403, 404], requestErrors) },
      },
    },
    async (request) => {
      const row = await visibleRequest(request);
      return queries.get(row.id, currentUser(request));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/approvals/:id/document',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The document version an approval request is for, as DOCX',
        params: idParams,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The document version asked for'),
          ...errorAnswers([401, 403, 404], requestErrors),
        },
      },
    },
    async (request, reply) => {
      const row = await visibleRequest(request);
      const content = await deps.documents.versionContent(row.document_id, row.document_version);
      if (!content) throw notFound('Das Dokument dieser Anfrage gibt es nicht mehr.');
      return sendFile(reply, content, row.file_name, DOCX_MIME_TYPE);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/approvals/:id/document.pdf',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The document version an approval request is for, as PDF',
        params: idParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The PDF rendition, shown inline'),
          ...errorAnswers([401, 403, 404], {
            ...requestErrors,
            404: 'Unknown approval request, or no PDF rendition on this server',
          }),
        },
      },
    },
    async (request, reply) => {
      const row = await visibleRequest(request);
      const content = await deps.documents.versionContent(row.document_id, row.document_version);
      if (!content) throw notFound('Das Dokument dieser Anfrage gibt es nicht mehr.');
      return sendPdf(reply, request.log, deps.pdf, content, row.file_name);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/approvals/:id/comparison',
    {
      ...staff,
      schema: {
        ...common,
        summary: 'The text of an approval request’s document against the generated text, by paragraph',
        params: idParams,
        response: { 200: approvalComparisonSchema, ...errorAnswers([401, 403, 404], requestErrors) },
      },
    },
    async (request) => {
      const row = await visibleRequest(request);
      const [generated, current] = await Promise.all([
        deps.documents.versionContent(row.document_id, 1),
        deps.documents.versionContent(row.document_id, row.document_version),
      ]);
      if (!generated || !current) throw notFound('Das Dokument dieser Anfrage gibt es nicht mehr.');
      const paragraphs = compareParagraphs(paragraphsOf(generated), paragraphsOf(current));
      return {
        edited: paragraphs.some((p) => p.change !== 'kept'),
        generatedVersion: 1,
        version: row.document_version,
        paragraphs,
      };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/approvals/:id/approve',
    {
      ...staffInPerson,
      schema: {
        ...common,
        summary: 'Approve a request: the envelope is sent at once in the requester’s name',
        params: idParams,
        body: approveBodySchema,
        response: {
          200: approvalRequestSchema.describe('The approved request with the state of its send'),
          ...errorAnswers([400, 401, 403, 404, 409], {
            403: 'The caller asked for it (four eyes), or the rules do not name them as approver',
            404: 'Unknown approval request',
            409: 'Decided already (another approver was first), or the document or envelope changed',
          }),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = requestIdOf(request.params.id);
      await requests.assertMayDecide(id, user);
      const { comment } = parseInput(approveBodySchema, request.body ?? {});
      await requests.approve(id, user, requestActor(request), comment || null);
      // The send is recorded as pending with the decision; waiting for the run answers its outcome at
      // once in the usual case. Whatever happens here, the run of any process completes it.
      await deps.sends
        .settle(id)
        .catch((error) => request.log.warn({ err: error }, 'approval send run failed'));
      return queries.get(id, user);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/approvals/:id/decline',
    {
      ...staffInPerson,
      schema: {
        ...common,
        summary: 'Decline a request with a reason: the requester is mailed, the envelope stays a draft',
        params: idParams,
        body: declineBodySchema,
        response: {
          200: approvalRequestSchema.describe('The declined request'),
          ...errorAnswers([400, 401, 403, 404, 409], {
            403: 'The caller asked for it (four eyes), or the rules do not name them as approver',
            404: 'Unknown approval request',
            409: 'Decided already (another approver was first), or the document or envelope changed',
          }),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = requestIdOf(request.params.id);
      await requests.assertMayDecide(id, user);
      const { reason } = parseInput(declineBodySchema, request.body ?? {});
      await requests.decline(id, user, requestActor(request), reason);
      return queries.get(id, user);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/approvals/:id/send-again',
    {
      // The requester, or an administrator (who may have no level of their own).
      preHandler: guards.session([1, 2, 3, 'administrator'], { personsOnly: true }),
      schema: {
        ...common,
        summary:
          'After an interrupted send to DocuSign: confirm the envelope is not at DocuSign, and send it again',
        description:
          'An approved send that was handed to DocuSign without an answer fails as uncertain (`send.uncertain`), ' +
          'and is never repeated on its own: DocuSign knows no idempotency key. Once the requester or an ' +
          'administrator checked in DocuSign that the envelope did not arrive, this frees the draft and runs ' +
          'the send again; the answer says how it went. Recorded in the audit log.',
        params: idParams,
        body: sendAgainBodySchema,
        response: {
          200: approvalRequestSchema.describe('The request with the state of the new send'),
          ...errorAnswers([400, 401, 403, 404, 409], {
            400: 'The confirmation `notAtDocusign: true` is missing',
            403: 'Neither the requester nor an administrator',
            404: 'Unknown approval request',
            409: 'No uncertain send to repeat: not approved, not failed, not interrupted at DocuSign, or the envelope is no longer a draft',
          }),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = requestIdOf(request.params.id);
      // Who may, before what they sent is read: 404, then 403; the send checks it again under its lock.
      const found = await queries.find(id);
      if (!found) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
      assertMaySendAgain(found.request, user);
      parseInput(sendAgainBodySchema, request.body ?? {});
      await deps.sends.sendAgain(id, user);
      await deps.sends
        .settle(id)
        .catch((error) => request.log.warn({ err: error }, 'approval send run failed'));
      const after = await queries.find(id);
      if (!after) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
      return queries.toView(after.request, after.decision, user);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/approval',
    {
      ...staff,
      schema: {
        ...common,
        summary:
          'Send for approval: stores the send and asks the approvers; the envelope goes out once approved',
        params: envelopeParams,
        body: sendEnvelopeSchema,
        response: {
          201: approvalRequestSchema.describe('The new approval request'),
          ...errorAnswers([400, 401, 403, 404, 409, 422, 503], {
            400: 'The send is incomplete, or its countersignatory is missing (where the family needs one) or unknown',
            403: 'Only the envelope’s creator and legal staff may send it',
            404: 'Unknown envelope',
            409: 'The envelope is no longer a draft, needs no approval, or a request for it is waiting',
            422: 'The CRM no longer has the match, or nobody but the caller may approve',
            503: 'The CRM cannot answer right now',
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const envelope = isUuid(id) ? await deps.envelopes.summary(id) : undefined;
      if (!envelope) throw notFound('Diesen Umschlag gibt es nicht.');
      if (!mayReadDocument(user, envelope.doc_key)) {
        throw forbidden('Diesen Umschlag darfst du mit deiner Berechtigung nicht sehen.');
      }
      if (!mayManageEnvelope(user, envelope.created_by)) {
        throw forbidden('Nur wer den Umschlag erstellt hat (oder Legal) darf ihn versenden oder verwerfen.');
      }
      const input = parseInput(sendEnvelopeSchema, request.body);
      // As the direct send does: a missing or unknown countersignatory is answered now, in German,
      // not by the approved send days later.
      await deps.countersignature.countersigner(envelope.doc_key, input, deps.db);
      const created = await requests.ask(envelope.id, input, user, requestActor(request), request.log);
      return reply.status(201).send(created);
    },
  );
};

/** The approval request's id from the path; 404 for what cannot be one, before any query. */
function requestIdOf(id: string): string {
  if (!isUuid(id)) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
  return id;
}
