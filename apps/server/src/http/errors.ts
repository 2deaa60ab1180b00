import { formatByteSize } from '@vertragsgenerator/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError, ZodSafeParseResult } from 'zod';

/**
 * The API's error answer `{ error, message }` (docs/architecture.md#api-conventions): `error` is a
 * stable code for programs, `message` German text a user may read.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const unauthorized = () =>
  new HttpError(401, 'unauthorized', 'Du bist nicht angemeldet oder deine Sitzung ist abgelaufen.');
export const forbidden = (message = 'Dafür fehlt dir die Berechtigung.') =>
  new HttpError(403, 'forbidden', message);
export const notFound = (message = 'Nicht gefunden.') => new HttpError(404, 'not_found', message);

export function invalidInput(error: ZodError): HttpError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return new HttpError(400, 'invalid_input', 'Die Eingabe ist ungültig.', fields);
}

/** Errors of the database driver that mean "the database is not reachable", not "the query is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
      return true;
    // 08xxx connection exceptions, 57P0x operator intervention (shutdown), 53xxx insufficient resources
    if (/^(08|57P0|53)/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  // "… is not queryable": the statement after a lost connection, on the client that lost it.
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|is not queryable/i.test(
    message,
  );
}

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

/** Parses request input with a shared schema; anything invalid becomes a 400 with the failing fields. */
export function parseInput<T>(
  schema: { safeParse(value: unknown): ZodSafeParseResult<T> },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}
