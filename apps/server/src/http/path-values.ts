const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a path value can be an id of ours: anything else names nothing, and answers 404 without a
 * query (PostgreSQL would refuse to compare it with a uuid column).
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
