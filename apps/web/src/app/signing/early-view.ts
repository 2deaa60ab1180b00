/**
 * `SIGNING_TOKEN_HEADER` of the domain package, whose module would bring zod and the signing schemas into
 * the entry's first few kilobytes (early-view.test.ts holds the two alike).
 */
const TOKEN_HEADER = 'x-signing-token';

/**
 * Asks for the signer's view of their link (`GET /backend/signing`) as the page's API client does
 * (features/signature/signing-api.ts: the token in its header, anonymous), while the page's code is still
 * on its way: on a phone's slow connection the answer is there by the time that code has run.
 */
export function askForSigningView(token: string): Promise<Response> {
  return fetch('/backend/signing', {
    headers: { [TOKEN_HEADER]: token, Accept: 'application/json' },
    credentials: 'omit',
  });
}
