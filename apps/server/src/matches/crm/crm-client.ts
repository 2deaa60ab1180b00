/** One request to the CRM. */
export interface CrmClient {
  /**
   * The CRM's record for the ID, or undefined when the CRM says it does not know it. Each call is one
   * attempt, bounded by the client's own timeout. Throws `CrmTransientError` when another attempt may
   * succeed; any other error ends the lookup at once.
   */
  fetchRecord(matchId: string): Promise<unknown>;

  /**
   * The CRM's records for many IDs in as few requests as it allows, by requested ID: an ID the CRM does
   * not know is missing from the map. Each record is the one `fetchRecord` would answer for its ID.
   * Each call is one attempt, each of its requests bounded by the client's own timeout; errors as
   * `fetchRecord`'s, for the whole call. Only for CRMs with a way to ask for many records at once: without
   * it, the match source asks `fetchRecord` once per ID.
   */
  fetchRecords?(matchIds: readonly string[]): Promise<Map<string, unknown>>;
}

/**
 * IDs per call of `fetchRecords`, and so per attempt: a failed call is retried for these IDs alone, not
 * for all of a batch. The Salesforce client's chunk (one query for 200 IDs), so one call is one request.
 */
export const CRM_RECORDS_PER_CALL = 200;

/** A 5xx answer, a network error or a timeout: worth another attempt. */
export class CrmTransientError extends Error {
  override name = 'CrmTransientError';
}

/** The CRM refused the request (a 4xx other than 404, e.g. bad credentials): asking again cannot help. */
export class CrmRefusedError extends Error {
  override name = 'CrmRefusedError';
}

/**
 * The CRM refuses our sign-in even with a fresh token (an IP restriction, a wrong instance, a revoked
 * connected app): nothing a user can fix, and asking again cannot help until an operator does.
 */
export class CrmSignInRefusedError extends CrmRefusedError {
  override name = 'CrmSignInRefusedError';
}

/** What the operators are told about the CRM, e.g. through the metrics. */
export interface CrmObserver {
  /** A lookup failed because the CRM refused a freshly signed-in request. */
  crmSignInRefused(): void;
}

/** Whether a match source reports to a `CrmObserver`: the CRM's does, the built-in store has nothing to report. */
export function reportsToCrmObserver(source: object): source is { observe(observer: CrmObserver): void } {
  return typeof (source as { observe?: unknown }).observe === 'function';
}
