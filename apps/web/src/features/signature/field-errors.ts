import type { z } from 'zod';

/**
 * Messages by field, keyed like the server's 400 `fields` (`recipients.0.email`), so that the
 * browser's and the server's verdicts show at the same place.
 */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

export const NO_FIELD_ERRORS: FieldErrors = {};

export function fieldErrorsOf(
  error: z.ZodError,
  message: (issue: z.core.$ZodIssue) => string = (issue) => issue.message,
): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    errors[key] = [...(errors[key] ?? []), message(issue)];
  }
  return errors;
}

/** The first message about `field`, the browser's before the server's; undefined when it is fine. */
export function errorAt(field: string, ...sources: FieldErrors[]): string | undefined {
  for (const errors of sources) {
    const first = errors[field]?.[0];
    if (first !== undefined) return first;
  }
  return undefined;
}
