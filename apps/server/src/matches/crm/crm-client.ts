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
