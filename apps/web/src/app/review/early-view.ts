/**
 * `REVIEW_TOKEN_HEADER` of the domain package, whose module would bring zod and the review schemas into
 * the entry's first few kilobytes (early-view.test.ts holds the two alike).
 */
const TOKEN_HEADER = 'x-review-token';

/**
 * Asks for the reviewer's view of their link (`GET /backend/review`) as the page's API client does
 * (features/review-link/review-api.ts: the token in its header, anonymous), while the page's code is
 * still on its way: on a phone's slow connection the answer is there by the time that code has run.
 */
export function askForReviewView(token: string): Promise<Response> {
  return fetch('/backend/review', {
    headers: { [TOKEN_HEADER]: token, Accept: 'application/json' },
    credentials: 'omit',
  });
}
