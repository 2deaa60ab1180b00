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
/** A conflict with the current state, in words the user can act on. */
export const conflict = (message: string) => new HttpError(409, 'conflict', message);

export function invalidInput(error: ZodError): HttpError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return new HttpError(400, 'invalid_input', 'Die Eingabe ist ungültig.', fields);
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
