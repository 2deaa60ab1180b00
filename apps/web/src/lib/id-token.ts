export type IdTokenSource = () => Promise<string | null>;

let idTokenSource: IdTokenSource = async () => null;

/**
 * The app wires this to the auth service once, so that the client needs no import of a feature. Apart from
 * the client (api.ts): main.tsx sets it without loading the client and its schemas, which /login does not need.
 */
export function setIdTokenSource(source: IdTokenSource): void {
  idTokenSource = source;
}

/** The ID token for the next API call, or null. */
export function currentIdToken(): Promise<string | null> {
  return idTokenSource();
}
