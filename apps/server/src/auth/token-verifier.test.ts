import { type CryptoKey, generateKeyPair, type JWTVerifyGetKey, SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier } from './token-verifier.js';

const ISSUER = 'https://sso.example.de';
const AUDIENCE = 'vertragsgenerator';

describe('token verifier', () => {
  let privateKey: CryptoKey;
  let otherPrivateKey: CryptoKey;
  let keys: JWTVerifyGetKey;
  let keyLookups = 0;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    otherPrivateKey = (await generateKeyPair('RS256')).privateKey;
    keys = async () => {
      keyLookups++;
      return pair.publicKey;
    };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const sign = (claims: { exp?: number; email?: string } = {}, key = privateKey) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: claims.email ?? 'anna.berger@example.de', name: 'Anna Berger' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('anna')
      .setIssuedAt(now)
      .setExpirationTime(claims.exp ?? now + 3600)
      .sign(key);
  };
  const verifier = () =>
    createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, emailClaim: 'email' });

  it('checks the signature of a token once, and answers its repetitions from memory', async () => {
    const tokens = verifier();
    const token = await sign();
    keyLookups = 0;
    const first = await tokens.verify(token);
    const again = await tokens.verify(token);
    expect(first).toMatchObject({ email: 'anna.berger@example.de', name: 'Anna Berger' });
    expect(again).toEqual(first);
    expect(keyLookups).toBe(1);
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = verifier();
    const now = Date.now();
    const token = await sign({ exp: Math.floor(now / 1000) + 60 });
    expect(await tokens.verify(token)).not.toBeNull();
    vi.useFakeTimers({ now: now + 61_000 + 5_000 });
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token changed in any part, even while the original is remembered', async () => {
    const tokens = verifier();
    const token = await sign();
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, email: 'mallory@example.de' })).toString(
      'base64url',
    );
    expect(await tokens.verify(`${header}.${otherPayload}.${signature}`)).toBeNull();
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    expect(await tokens.verify(await sign({}, otherPrivateKey))).toBeNull();
  });

  it('checks a refused token again every time it comes', async () => {
    const tokens = verifier();
    const forged = await sign({}, otherPrivateKey);
    keyLookups = 0;
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(forged)).toBeNull();
    expect(keyLookups).toBe(2);
  });
});
