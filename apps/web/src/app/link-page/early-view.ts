/**
 * Asks for the view of a link (`path`) as the page's API client does — the token in its header, anonymous —
 * while the page's code is still on its way: on a phone's slow connection the answer is there by the time
 * that code has run.
 */
export function askForLinkView(path: string, tokenHeader: string, token: string): Promise<Response> {
  return fetch(path, {
    headers: { [tokenHeader]: token, Accept: 'application/json' },
    credentials: 'omit',
  });
}
