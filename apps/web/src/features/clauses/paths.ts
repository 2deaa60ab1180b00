/**
 * The clause library's addresses. The shell and the router read them from this module, which imports
 * nothing, so the shell's first chunk does not grow with the feature.
 */
export const CLAUSE_PATHS = {
  /** The clause library (legal staff and administrators, as the template library). */
  clauses: '/klauseln',
  /** One clause with its versions, its usage and its settings. */
  clause: '/klauseln/:key',
} as const;

/** The breadcrumb's and the header's name of the library. */
export const CLAUSES_PAGE_NAME = 'Klauseln';

export function clausePath(key: string): string {
  return CLAUSE_PATHS.clause.replace(':key', encodeURIComponent(key));
}
