import type { Socket } from 'node:net';
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

/** What Node's HTTP parser refuses before Fastify sees a request, in the API's shape and in German. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; error: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'headers_too_large',
    message: 'Die Kopfzeilen der Anfrage sind zu groß.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    error: 'request_timeout',
    message: 'Die Anfrage kam nicht rechtzeitig vollständig an.',
  },
};
const MALFORMED_REQUEST = {
  status: 400,
  reason: 'Bad Request',
  error: 'bad_request',
  message: 'Die Anfrage ist kein gültiges HTTP.',
};

/**
 * Fastify's `clientErrorHandler`: malformed HTTP, oversized headers or a request that never finished
 * get the API's error answer on the raw socket (Fastify's own is English), then the socket closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // The client left: nobody to answer.
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
  const answer = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
  if (socket.writable && socket.bytesWritten === 0) {
    const body = JSON.stringify({ error: answer.error, message: answer.message });
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
