import {
  webhookDeliverySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointCreateSchema,
  webhookEndpointSchema,
  webhookEndpointStateSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer, noContent, PUBLIC } from '../http/openapi.js';
import { PDF_MIME, sendFile } from '../http/send-file.js';
import type { SealedPdfAccess } from '../integrations/webhooks/sealed-pdf-access.js';
import type { WebhookEndpoints } from '../integrations/webhooks/webhook-endpoints.js';
import { parseInput } from '../shared/http-error.js';

const endpointParams = z.object({
  endpointId: z.uuid({ error: 'Diesen Webhook-Empfänger gibt es nicht.' }).describe('The endpoint’s id'),
});
const deliveryParams = z.object({
  deliveryId: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'Diese Zustellung gibt es nicht.')
    .describe('The delivery’s id'),
});
const envelopeParams = z.object({
  envelopeId: z.uuid({ error: 'Diesen Umschlag gibt es nicht.' }).describe('The envelope’s id'),
});
const signedFetchHeaders = z.object({
  'webhook-endpoint': z.string().describe('The id of the endpoint whose secret signed this request'),
  'webhook-id': z.string().describe('The envelope’s id'),
  'webhook-timestamp': z.string().describe('Unix seconds; at most five minutes off'),
  'webhook-signature': z
    .string()
    .describe(
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.` with the endpoint’s key',
    ),
});

/**
 * /verwaltung → Integrationen: webhook endpoints and their deliveries, for administrators only; and
 * the sealed PDF for a receiver told of a completed envelope, with its endpoint's signature instead of
 * a sign-in.
 */
export const webhookRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  endpoints: WebhookEndpoints;
  sealedPdfs: SealedPdfAccess;
  /** After `Erneut senden`: a delivery run starts without waiting for the next. */
  deliverSoon: () => void;
}> = async (app, { guards, endpoints, sealedPdfs, deliverSoon }) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/webhooks',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The webhook endpoints with their state and undelivered events',
        response: { 200: webhookEndpointSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => endpoints.list(),
  );

  app.post(
    '/backend/admin/webhooks',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Register a webhook endpoint; the answer shows its signing secret, once',
        body: webhookEndpointCreateSchema,
        response: {
          201: webhookEndpointCreatedSchema,
          ...errorAnswers([400, 401, 403], {
            400: 'Invalid input: no event, not an http(s) URL, or an internal address (`fields.url`)',
          }),
        },
      },
    },
    async (request, reply) => {
      const input = parseInput(webhookEndpointCreateSchema, request.body);
      const created = await endpoints.register(currentUser(request).email, input);
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/backend/admin/webhooks/:endpointId/active',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Pause or activate a webhook endpoint',
        params: endpointParams,
        body: webhookEndpointStateSchema,
        response: { 200: webhookEndpointSchema, ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const { endpointId } = parseInput(endpointParams, request.params);
      const { active } = parseInput(webhookEndpointStateSchema, request.body);
      const endpoint = await endpoints.setActive(currentUser(request).email, endpointId, active);
      if (active) deliverSoon();
      return endpoint;
    },
  );

  app.delete(
    '/backend/admin/webhooks/:endpointId',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Delete a webhook endpoint and its undelivered events',
        params: endpointParams,
        response: { 204: noContent('Deleted'), ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request, reply) => {
      const { endpointId } = parseInput(endpointParams, request.params);
      await endpoints.delete(currentUser(request).email, endpointId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/backend/admin/webhooks/:endpointId/deliveries',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The newest 50 deliveries of an endpoint, each with its attempts',
        params: endpointParams,
        response: { 200: webhookDeliverySchema.array(), ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const { endpointId } = parseInput(endpointParams, request.params);
      return endpoints.deliveries(endpointId);
    },
  );

  app.post(
    '/backend/admin/webhooks/deliveries/:deliveryId/resend',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Erneut senden: deliver an event again, with three fresh days of retries',
        params: deliveryParams,
        response: { 204: noContent('Due again'), ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request, reply) => {
      const { deliveryId } = parseInput(deliveryParams, request.params);
      await endpoints.resend(currentUser(request).email, deliveryId);
      deliverSoon();
      return reply.status(204).send();
    },
  );

  app.get(
    '/backend/webhooks/envelopes/:envelopeId/sealed-pdf',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'The sealed PDF of an envelope reported as envelope.completed, signed with the endpoint’s secret',
        security: PUBLIC,
        params: envelopeParams,
        headers: signedFetchHeaders,
        response: {
          200: fileAnswer(PDF_MIME, 'The sealed PDF; its SHA-256 is the one the event named'),
          ...errorAnswers([400, 401, 404], {
            401: 'Not signed with the endpoint’s secret, or the timestamp is more than five minutes off',
            404: 'No completion of this envelope was reported to this endpoint',
          }),
        },
      },
    },
    async (request, reply) => {
      const { envelopeId } = parseInput(envelopeParams, request.params);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const { pdf, fileName } = await sealedPdfs.sealedPdf(envelopeId, {
        endpointId: header('webhook-endpoint'),
        webhookId: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
      });
      return sendFile(reply, pdf, fileName, PDF_MIME);
    },
  );
};
