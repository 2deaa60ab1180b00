import { formatByteSize } from '@vertragsgenerator/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/database.js';
import { HttpError } from '../shared/http-error.js';

/**
 * Text PostgreSQL cannot store (a NUL character): SQLSTATE 22021 character_not_in_repertoire,
 * 22P05 untranslatable_character. Input that carries it is invalid, not a fault of ours.
 */
function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}

/**
 * The router's own refusals, raised before any route or error handler runs: a path that is not
 * valid percent-encoding (400), or a path parameter longer than `maxParamLength` (414).
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.statusCode === 414) {
    return reply.status(414).send({ error: 'uri_too_long', message: 'Die Adresse ist zu lang.' });
  }
  return reply.status(400).send({ error: 'bad_request', message: 'Die Adresse ist ungültig.' });
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        error: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }
    if (isUnstorableText(error)) {
      return reply
        .status(400)
        .send({ error: 'invalid_input', message: 'Die Eingabe enthält unzulässige Zeichen.' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.status(503).send({
        error: 'unavailable',
        message: 'Die Datenbank ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
      });
    }
    const status = (error as FastifyError).statusCode;
    if (status === 413) {
      const limit = request.routeOptions.bodyLimit;
      return reply.status(413).send({
        error: 'payload_too_large',
        message: limit
          ? `Die Anfrage ist zu groß (höchstens ${formatByteSize(limit)}).`
          : 'Die Anfrage ist zu groß.',
      });
    }
    if (status === 429) {
      return reply.status(429).send({
        error: 'rate_limited',
        message: 'Zu viele Anfragen. Bitte warte einen Moment und versuche es dann erneut.',
      });
    }
    if (status && status >= 400 && status < 500) {
      // Fastify's own 4xx: unparseable JSON, wrong content type, …
      return reply
        .status(status)
        .send({ error: 'bad_request', message: 'Die Anfrage ist ungültig und wurde nicht verarbeitet.' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({
      error: 'internal',
      message: 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuche es erneut.',
    });
  });
}
