import { loadOnce } from '../shared/load-once.js';

/** What this server needs of an external issuer's OpenID Connect discovery document. */
export interface IssuerMetadata {
  jwksUri: string;
  tokenEndpoint: string | undefined;
}

/**
 * The issuer's discovery document, fetched once when first needed. A failed fetch is not kept: the
 * next caller tries again, so an issuer that was briefly unreachable at start does not stay broken.
 */
export function issuerDiscovery(issuer: string): () => Promise<IssuerMetadata> {
  const discover = async (): Promise<IssuerMetadata> => {
    const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) throw new Error(`OIDC discovery of ${issuer} answered ${response.status}`);
    const document = (await response.json()) as { jwks_uri?: unknown; token_endpoint?: unknown };
    if (typeof document.jwks_uri !== 'string') throw new Error(`OIDC discovery of ${issuer} has no jwks_uri`);
    return {
      jwksUri: document.jwks_uri,
      tokenEndpoint: typeof document.token_endpoint === 'string' ? document.token_endpoint : undefined,
    };
  };
  return loadOnce(discover);
}
