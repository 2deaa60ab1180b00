/** node-postgres' conversion of a query parameter to the text (or bytes) PostgreSQL receives. */
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): string | Buffer | null;
}
