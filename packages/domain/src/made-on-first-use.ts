/**
 * A value made when it is first asked for, then kept. For Intl formatters: making one loads the
 * locale's (and a time zone's) data, several milliseconds each on a phone, and a module that made them
 * as it loads made every page that imports it pay for them at its start, used or not.
 */
export function madeOnFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}
