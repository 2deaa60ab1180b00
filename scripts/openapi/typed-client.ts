// A client typed from the served description, as a consumer of the API would generate it with
// openapi-typescript. `npm run lint` generates the types and compiles this file: an answer the
// description stops describing, or describes loosely, breaks the lint.
import type { operations } from './generated/api.js';

type Operation = keyof operations;
type JsonAnswer<
  Id extends Operation,
  Status extends keyof operations[Id]['responses'],
> = operations[Id]['responses'][Status] extends { content: { 'application/json': infer Body } }
  ? Body
  : never;

export type EnvelopeOverview = JsonAnswer<'getSignatureEnvelopes', 200>;
export type OverviewQuery = NonNullable<operations['getSignatureEnvelopes']['parameters']['query']>;
export type ApiError = JsonAnswer<'getSignatureEnvelopes', 401>;

/** One page of the signature overview, as `/signaturen` reads it. */
export async function envelopeOverview(
  baseUrl: string,
  token: string,
  { status = 'open', q = '', page = 1 }: OverviewQuery,
): Promise<EnvelopeOverview> {
  const query = new URLSearchParams({ status, q, page: String(page) });
  const response = await fetch(`${baseUrl}/backend/signature/envelopes?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(((await response.json()) as ApiError).message);
  return (await response.json()) as EnvelopeOverview;
}

/** How many envelopes wait for a signature: a count per status, each status named. */
export function waiting({ counts }: EnvelopeOverview): number {
  return counts.sent + counts.partially_signed;
}

// The types are the description's, not `unknown`: a status it does not name is an error,
export function archived({ counts }: EnvelopeOverview): number {
  // @ts-expect-error no such status
  return counts.archived;
}
// and so is an operation it does not have.
// @ts-expect-error no such operation
export type Missing = operations['getEverything'];
