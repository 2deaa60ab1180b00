/**
 * The link token: the fragment of a link page's address (`/unterschreiben#<token>`,
 * `/vertragspruefung#<token>`), which the browser never sends to a server.
 */
export function linkToken(): string {
  return window.location.hash.replace(/^#/, '');
}

/** Calls `listener` when the fragment changes: a second link opened in the same tab only jumps. */
export function onLinkTokenChange(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}
