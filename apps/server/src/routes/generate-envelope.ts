import {
  type EsignatureDataList,
  envelopeUrlSchema,
  esignatureDataListSchema,
  generationRequestSchema,
  recipientsFromDataList,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../auth/guards.js';
import { HttpError, notFound } from '../http/errors.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { sha256Hex } from '../shared/sha256.js';
import type { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { type SignatureProvider, SignatureProviderError } from '../signature/signature-provider.js';
import {
  type DocumentRoutesDeps,
  documentParamsSchema,
  generateDocument,
  generationErrors,
  readGenerationRequest,
} from './documents.js';

export interface GenerateEnvelopeDeps extends Omit<DocumentRoutesDeps, 'templateUsage' | 'templates'> {
  guards: AuthGuards;
  envelopes: EnvelopesRepository;
  provider: SignatureProvider;
  publicUrl: string;
}

/** The browser's key for one click on "generate": retries of the same click carry the same key. */
const IDEMPOTENCY_HEADER = 'idempotency-key';
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;
/** DocuSign's limit for an e-mail subject. */
const SUBJECT_MAX = 100;

const envelopeInProgress = () =>
  new HttpError(409, 'in_progress', 'Dieser Umschlag wird gerade erstellt. Bitte warte einen Moment.');

/**
 * `POST /backend/generateDocusign/{docId}/{matchId}` (SPEC §7): generates the document, records the
 * envelope, creates it at the signature provider as a draft and answers `{ data: <sender view URL> }`.
 * The record exists before the provider is called, and a retried request (same idempotency key) is
 * answered from the envelope it already created: a network hiccup never makes a second envelope.
 */
export const generateEnvelopeRoutes: FastifyPluginAsync<GenerateEnvelopeDeps> = async (app, deps) => {
  app.post<{ Params: { docId: string; matchId: string } }>(
    '/backend/generateDocusign/:docId/:matchId',
    {
      preHandler: deps.guards.session('staff'),
      schema: {
        tags: ['documents'],
        summary: 'Generate a document and create its e-signature envelope as a draft',
        description:
          'Answers the URL of the sender view. A retry with the same `Idempotency-Key` is answered from ' +
          'the envelope the first request created.',
        security: BEARER,
        params: documentParamsSchema,
        headers: z.object({
          [IDEMPOTENCY_HEADER]: z
            .string()
            .regex(IDEMPOTENCY_KEY)
            .optional()
            .describe('One key per click on "generate"; retries of the click send it again'),
        }),
        body: generationRequestSchema.extend({ dataList: esignatureDataListSchema }),
        response: {
          200: envelopeUrlSchema.describe('The sender view to open'),
          ...errorAnswers([400, 401, 403, 404, 409, 422, 500, 503], {
            ...generationErrors,
            404: 'Unknown key or match, or the key is not one for e-signature',
            409: 'The envelope of this Idempotency-Key is still being created',
          }),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const requestKey = idempotencyKey(request);
      if (requestKey) {
        const earlier = await deps.envelopes.findByRequestKey(user.email, requestKey);
        if (earlier?.external_id) {
          return {
            data: await senderView(deps, { id: earlier.id, externalId: earlier.external_id }, request),
          };
        }
        if (earlier?.status === 'created') throw envelopeInProgress();
        // Only a refusal keeps its key (see below), and it may have left an envelope at the provider
        // (no answer in time): the same click gets the same answer, never a second envelope.
        if (earlier?.status === 'failed') {
          throw new HttpError(422, 'signature_rejected', earlier.error ?? 'Der Umschlag wurde abgelehnt.');
        }
      }

      const order = await readGenerationRequest(request, deps);
      if (order.entry.form !== 'docusign') {
        throw notFound(`${order.entry.key} ist kein Dokument zur elektronischen Unterschrift.`);
      }
      const dataList = order.dataList as EsignatureDataList;
      const document = await generateDocument(deps.generator, order, request.log);
      const sender = {
        name: dataList.Absender_UserName ?? user.name,
        email: dataList.Absender_Email ?? user.email,
      };
      const subject = `Bitte unterschreiben: ${document.fileName.replace(/\.docx$/i, '')}`.slice(
        0,
        SUBJECT_MAX,
      );
      const recipients = recipientsFromDataList(dataList);
      const documentSha256 = sha256Hex(document.content);
      const actor = { email: user.email, ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
      const { id, existing } = await deps.envelopes.create({
        documentId: document.id,
        documentVersion: 1,
        documentSha256,
        matchId: order.matchId,
        customer: typeof order.data.kunde === 'string' ? order.data.kunde : '',
        docKey: order.entry.key,
        provider: deps.provider.kind,
        subject,
        message: '',
        sender,
        recipients,
        createdBy: actor,
        requestKey,
      });
      // A second request with the same key passed the check above while the first was rendering:
      // the first one creates the envelope at the provider, this one must not.
      if (existing) throw envelopeInProgress();

      let externalId: string;
      try {
        ({ externalId } = await deps.provider.createEnvelope({
          id,
          entry: order.entry,
          matchId: order.matchId,
          document: { fileName: document.fileName, content: document.content, sha256: documentSha256 },
          data: order.data,
          sender,
          recipients,
          subject,
          message: '',
        }));
      } catch (error) {
        await deps.envelopes.markFailed(id, error instanceof Error ? error.message : String(error), actor);
        // The provider surely made nothing of a passing failure: the browser's retry of this click
        // may try again. The failed attempt keeps its record.
        const passing = !(error instanceof SignatureProviderError) || error.retryable;
        if (requestKey && passing) await deps.envelopes.releaseFailedRequestKey(user.email, requestKey);
        throw providerProblem(error, request);
      }
      await deps.envelopes.setExternalId(id, externalId);
      return { data: await senderView(deps, { id, externalId }, request) };
    },
  );
};

function idempotencyKey(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new HttpError(400, 'invalid_input', 'Der Idempotency-Key ist ungültig.');
  }
  return value;
}

/** The sender view of an envelope the provider has; failing here leaves the envelope for a retry. */
async function senderView(
  deps: GenerateEnvelopeDeps,
  envelope: { id: string; externalId: string },
  request: FastifyRequest,
): Promise<string> {
  try {
    return await deps.provider.senderViewUrl(envelope, `${deps.publicUrl}/start`);
  } catch (error) {
    throw providerProblem(error, request);
  }
}

/** Retryable provider trouble is 503 (the browser retries); a refusal is 422 with its German reason. */
function providerProblem(error: unknown, request: FastifyRequest): unknown {
  if (!(error instanceof SignatureProviderError)) return error;
  request.log.warn({ err: error, detail: error.providerDetail }, 'signature provider failed');
  return error.retryable
    ? new HttpError(503, 'signature_unavailable', error.message)
    : new HttpError(422, 'signature_rejected', error.message);
}
