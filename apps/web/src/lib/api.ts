import { apiErrorSchema } from '@vertragsgenerator/domain';
import type { z } from 'zod';
import { texts } from '@/texts';
import { currentIdToken } from './id-token';

/**
 * A failed API call: the HTTP status (0 when the server was not reached) and the server's
 * `{error, message, fields}`.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  /** The input fields a 400 names, with the server's words for each. */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** The whole error body, for a caller that reads more of it than code and message (e.g. a 409's ids). */
  readonly body: unknown;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: ErrorOptions & { fields?: Record<string, string[]>; body?: unknown },
  ) {
    super(message, options);
    this.fields = options?.fields ?? {};
    this.body = options?.body;
  }
}

export { setIdTokenSource } from './id-token';

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a `Blob` (a file) is sent as is, with its own type as `Content-Type`. */
  body?: unknown;
  signal?: AbortSignal;
  /** Further request headers (never `Authorization`: the client sets that). */
  headers?: Record<string, string>;
  /**
   * A call on behalf of someone without an account (a signer): no ID token and no cookies, even when
   * the browser happens to hold a staff member's session.
   */
  anonymous?: boolean;
}

/**
 * Calls the API under the page origin with the ID token as bearer (only there:
 * docs/decisions.md#token-only-in-the-authorization-header).
 * Resolves with the response of any 2xx answer; rejects with an `ApiRequestError` otherwise.
 */
export async function apiFetch(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const headers = new Headers({ ...options.headers, Accept: 'application/json' });
  const token = options.anonymous ? null : await currentIdToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: options.anonymous ? 'omit' : 'same-origin',
  };
  if (options.body instanceof Blob) {
    headers.set('Content-Type', options.body.type || 'application/octet-stream');
    init.body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  return checkedAnswer(fetch(path, init), options.signal);
}

/**
 * The answer to a request as `apiFetch` resolves it, also for a request sent before the client had loaded
 * (a page's early start, app/signing): a failure as an `ApiRequestError`.
 */
export async function checkedAnswer(request: Promise<Response>, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await request;
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiRequestError(0, 'network_error', texts.api.network, { cause });
  }
  if (!response.ok) throw await toApiRequestError(response);
  return response;
}

/** `apiFetch` plus validation of the JSON answer against the shared schema. */
export async function apiJson<T>(
  path: string,
  schema: z.ZodType<T>,
  options: ApiRequestOptions = {},
): Promise<T> {
  return parseJsonAnswer(await apiFetch(path, options), schema);
}

/** Validates the JSON of an answer `apiFetch` resolved with, for calls that also know answers without a body. */
export async function parseJsonAnswer<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiRequestError(response.status, 'invalid_response', texts.api.unexpectedAnswer, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Sends a file as the request body, reporting how much of it has gone out (0…1): `fetch` tells nothing
 * of an upload's progress, XMLHttpRequest does. Answers and errors as `apiJson`.
 */
export async function apiUpload<T>(
  path: string,
  file: Blob,
  schema: z.ZodType<T>,
  onProgress: (share: number) => void,
): Promise<T> {
  const token = await currentIdToken();
  const response = await new Promise<Response>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      resolve(
        new Response(request.responseText, {
          status: request.status,
          headers: { 'Content-Type': request.getResponseHeader('Content-Type') ?? 'application/json' },
        }),
      );
    request.onerror = () => reject(new ApiRequestError(0, 'network_error', texts.api.network));
    request.send(file);
  });
  if (!response.ok) throw await toApiRequestError(response);
  return parseJsonAnswer(response, schema);
}

async function toApiRequestError(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = apiErrorSchema.safeParse(body);
  return parsed.success
    ? new ApiRequestError(response.status, parsed.data.error, parsed.data.message, {
        ...(parsed.data.fields && { fields: parsed.data.fields }),
        body,
      })
    : new ApiRequestError(response.status, `http_${response.status}`, texts.api.unexpectedAnswer);
}

/** The German text to show for a failed call: the server's own words where it gave any. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiRequestError ? error.message : texts.unexpectedError;
}
