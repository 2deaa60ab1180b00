import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../shared/sha256.js';
import type { IssuerMetadata } from './issuer-discovery.js';

/** The identity a verified ID token proves. */
export interface TokenIdentity {
  email: string;
  name: string;
  /** Seconds since epoch, from the token. */
  issuedAt: number;
  expiresAt: number;
  tokenHash: string;
}

export interface TokenVerifier {
  /** Resolves the identity, or null for any token that is not valid right now. */
  verify(token: string): Promise<TokenIdentity | null>;
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Key lookup: the embedded provider passes its own keys, external issuers use their JWKS URL. */
  keys: JWTVerifyGetKey;
  emailClaim: string;
}

export function hashToken(token: string): string {
  return sha256Hex(token);
}

/**
 * Verifies OIDC ID tokens with jose: signature against the issuer's keys, issuer, audience and expiry.
 * Only asymmetric algorithms are accepted, so a token "signed" with `none` or an HMAC never passes.
 *
 * The browser sends the same token with every request until it expires, and checking its RSA
 * signature was an eighth of the server thread's work while documents were generated. A token that
 * passed is remembered (by its hash) until its `exp`; one that failed is checked again every time.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const verified = new LRUCache<string, TokenIdentity>({ max: VERIFIED_TOKENS_KEPT });

  async function verifySignatureAndClaims(token: string, tokenHash: string): Promise<TokenIdentity | null> {
    try {
      const { payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['exp', 'iat', 'sub'],
        clockTolerance: 5,
      });
      const email = payload[options.emailClaim];
      if (typeof email !== 'string' || !email.includes('@')) return null;
      const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : email;
      return {
        email: email.toLowerCase(),
        name,
        issuedAt: payload.iat as number,
        expiresAt: payload.exp as number,
        tokenHash,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  }

  return {
    async verify(token) {
      if (token.length > 16_384) return null;
      const tokenHash = hashToken(token);
      const known = verified.get(tokenHash);
      if (known && known.expiresAt * 1000 > Date.now()) return known;
      const identity = await verifySignatureAndClaims(token, tokenHash);
      if (identity) verified.set(tokenHash, identity);
      else verified.delete(tokenHash);
      return identity;
    },
  };
}

/** Signed-in users with a token each, and then some: beyond this the least recently seen go. */
const VERIFIED_TOKENS_KEPT = 2_000;

/** Key lookup for an external issuer, discovered from its OpenID configuration on first use. */
export function remoteIssuerKeys(discover: () => Promise<IssuerMetadata>): JWTVerifyGetKey {
  let keys: JWTVerifyGetKey | undefined;
  return async (header, token) => {
    keys ??= createRemoteJWKSet(new URL((await discover()).jwksUri));
    return keys(header, token);
  };
}
