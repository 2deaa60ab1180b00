/** One request to the CRM. */
export interface CrmClient {
  /**
   * The CRM's record for the ID, or undefined when the CRM says it does not know it. Each call is one
   * attempt, bounded by the client's own timeout. Throws `CrmTransientError` when another attempt may
   * succeed; any other error ends the lookup at once.
   */
  fetchRecord(matchId: string): Promise<unknown>;
}

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
