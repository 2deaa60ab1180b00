import { HttpError } from '../shared/http-error.js';

/** How a use case or repository refuses: the API error's status and German message. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.statusCode, message: error.message };
}
