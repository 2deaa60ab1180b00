import { createHash, randomBytes } from 'node:crypto';

/** Every demo account's password (README, Demo accounts). */
const DEMO_PASSWORD = 'demo';
const EMBEDDED_CLIENT_ID = 'vertragsgenerator';

/**
 * Signs a demo account in at the server's embedded identity provider over HTTP, as the SPA's popup
 * does (authorization code with PKCE), and opens the session with `saveUser`: the answer is a real ID
 * token that every private route accepts, checked with `verifyUser` before it is used for load.
 *
 * @param {string} baseUrl the server's PUBLIC_URL, e.g. http://127.0.0.1:8123
 * @param {string} email a demo account, e.g. legal@demo.local
 * @returns {Promise<string>} the ID token
 */
export async function signInDemoAccount(baseUrl, email) {
  const cookies = new Map();
  const request = async (method, url, form) => {
    const response = await fetch(new URL(url, baseUrl), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const expectRedirect = async (response, step) => {
    const location = response.headers.get('location');
    if (response.status !== 303 || !location) {
      throw new Error(`sign-in of ${email}: ${step} answered ${response.status} ${await response.text()}`);
    }
    await response.body?.cancel();
    return location;
  };

  const redirectUri = `${baseUrl}/auth/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URLSearchParams({
    client_id: EMBEDDED_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const interaction = await expectRedirect(await request('GET', `/idp/auth?${authorize}`), 'authorize');
  const resume = await expectRedirect(
    await request('POST', `${interaction}/login`, { email, password: DEMO_PASSWORD }),
    'login',
  );
  const callback = new URL(await expectRedirect(await request('GET', resume), 'resume'), baseUrl);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`sign-in of ${email}: no code in ${callback}`);
  const tokenResponse = await request('POST', '/idp/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: EMBEDDED_CLIENT_ID,
    code_verifier: verifier,
  });
  if (tokenResponse.status !== 200) {
    throw new Error(
      `sign-in of ${email}: token answered ${tokenResponse.status} ${await tokenResponse.text()}`,
    );
  }
  const { id_token: token } = await tokenResponse.json();

  for (const path of ['/backend/private/saveUser', '/backend/private/verifyUser']) {
    const response = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (response.status !== 200) {
      throw new Error(`${path} for ${email} answered ${response.status} ${await response.text()}`);
    }
    await response.body?.cancel();
  }
  return token;
}
