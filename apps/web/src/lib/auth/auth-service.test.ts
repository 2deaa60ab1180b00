import { User } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markSignedOut } from '@/lib/storage';
import {
  createAuthService,
  createUserManager,
  isPopupClosedByUser,
  type OidcClient,
  TOKEN_ATTEMPTS,
} from './auth-service';

const NOW_MS = Date.UTC(2025, 0, 15, 9, 0, 0);
const NOW_S = NOW_MS / 1000;

function user(idToken: string, expiresAt: number): User {
  return new User({
    id_token: idToken,
    access_token: `access-${idToken}`,
    token_type: 'Bearer',
    session_state: null,
    profile: {
      sub: 'u1',
      iss: 'http://localhost/idp',
      aud: 'vertragsgenerator',
      iat: NOW_S - 60,
      exp: expiresAt,
    },
  });
}

function fakeClient(overrides: Partial<OidcClient> = {}) {
  return {
    getUser: vi.fn<OidcClient['getUser']>(async () => null),
    signinPopup: vi.fn<OidcClient['signinPopup']>(),
    signinSilent: vi.fn<OidcClient['signinSilent']>(async () => null),
    signinCallback: vi.fn<OidcClient['signinCallback']>(async () => undefined),
    removeUser: vi.fn<OidcClient['removeUser']>(async () => {}),
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('freshIdToken', () => {
  it('returns the stored ID token while it is valid for more than a minute', async () => {
    const client = fakeClient({ getUser: vi.fn(async () => user('stored', NOW_S + 61)) });
    const auth = createAuthService(client, () => NOW_MS);

    expect(await auth.freshIdToken()).toEqual({ idToken: 'stored', renewed: false });
    expect(client.signinSilent).not.toHaveBeenCalled();
  });

  it('renews silently when the token expires within a minute', async () => {
    const client = fakeClient({
      getUser: vi.fn(async () => user('old', NOW_S + 30)),
      signinSilent: vi.fn(async () => user('new', NOW_S + 3600)),
    });
    const auth = createAuthService(client, () => NOW_MS);

    expect(await auth.freshIdToken()).toEqual({ idToken: 'new', renewed: true });
    expect(client.signinSilent).toHaveBeenCalledWith({ nonce: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('renews silently when the token has expired', async () => {
    const client = fakeClient({
      getUser: vi.fn(async () => user('old', NOW_S - 10)),
      signinSilent: vi.fn(async () => user('new', NOW_S + 3600)),
    });
    expect(await createAuthService(client, () => NOW_MS).freshIdToken()).toEqual({
      idToken: 'new',
      renewed: true,
    });
  });

  it('gives up when the silent renewal fails or yields an expired token', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = fakeClient({
      getUser: vi.fn(async () => user('old', NOW_S - 10)),
      signinSilent: vi.fn(async () => {
        throw new Error('login_required');
      }),
    });
    expect(await createAuthService(failing, () => NOW_MS).freshIdToken()).toBeNull();

    const stale = fakeClient({
      getUser: vi.fn(async () => user('old', NOW_S - 10)),
      signinSilent: vi.fn(async () => user('old', NOW_S - 10)),
    });
    expect(await createAuthService(stale, () => NOW_MS).freshIdToken()).toBeNull();
  });

  it('waits for a stored user up to 10 times, 100 ms apart', async () => {
    vi.useFakeTimers();
    const getUser = vi
      .fn<OidcClient['getUser']>()
      .mockResolvedValueOnce(null)
      .mockResolvedValueOnce(null)
      .mockResolvedValue(user('late', NOW_S + 3600));
    const client = fakeClient({ getUser });
    const result = createAuthService(client, () => NOW_MS).freshIdToken();

    await vi.advanceTimersByTimeAsync(200);
    expect(await result).toEqual({ idToken: 'late', renewed: false });
    expect(client.getUser).toHaveBeenCalledTimes(3);
  });

  it('answers null after 10 attempts without a stored user', async () => {
    vi.useFakeTimers();
    const client = fakeClient();
    const result = createAuthService(client, () => NOW_MS).freshIdToken();

    await vi.advanceTimersByTimeAsync(99 * (TOKEN_ATTEMPTS - 1));
    expect(client.getUser).toHaveBeenCalledTimes(TOKEN_ATTEMPTS - 1);
    await vi.advanceTimersByTimeAsync(TOKEN_ATTEMPTS);
    expect(await result).toBeNull();
    expect(client.getUser).toHaveBeenCalledTimes(TOKEN_ATTEMPTS);
  });
});

describe('signInWithPopup', () => {
  it('asks oidc-client-ts to abort when the user closes the popup', async () => {
    const client = fakeClient();
    await createAuthService(client).signInWithPopup();
    expect(client.signinPopup).toHaveBeenCalledWith(expect.objectContaining({ popupAbortOnClose: true }));
  });

  it('asks with a new nonce each time, so that two sign-ins in one second get two tokens', async () => {
    const client = fakeClient();
    const auth = createAuthService(client);
    await auth.signInWithPopup();
    await auth.signInWithPopup();
    const nonces = vi.mocked(client.signinPopup).mock.calls.map(([args]) => args?.nonce);
    expect(nonces).toHaveLength(2);
    expect(nonces[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(nonces[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('asks the provider for credentials again after an explicit logout, once', async () => {
    const client = fakeClient();
    const auth = createAuthService(client);
    markSignedOut();
    await auth.signInWithPopup();
    expect(client.signinPopup).toHaveBeenLastCalledWith(
      expect.objectContaining({ popupAbortOnClose: true, prompt: 'login' }),
    );
    await auth.signInWithPopup();
    expect(vi.mocked(client.signinPopup).mock.lastCall?.[0]).not.toHaveProperty('prompt');
  });

  it('recognises the popup-closed error of oidc-client-ts', () => {
    expect(isPopupClosedByUser(new Error('Popup closed by user'))).toBe(true);
    expect(isPopupClosedByUser(new Error('Failed to fetch'))).toBe(false);
    expect(isPopupClosedByUser('Popup closed by user')).toBe(false);
  });
});

describe('driveAccessToken', () => {
  it('is null without Drive access, and does not even read the store', () => {
    const client = fakeClient({ getUser: vi.fn(async () => user('stored', NOW_S + 3600)) });
    expect(createAuthService(client, () => NOW_MS).driveAccessToken()).toBeNull();
    expect(client.getUser).not.toHaveBeenCalled();
  });

  it('hands out the access token, not the ID token, once the stored user is read', async () => {
    const client = fakeClient({ getUser: vi.fn(async () => user('stored', NOW_S + 3600)) });
    const auth = createAuthService(client, () => NOW_MS, { driveAccess: true });

    expect(auth.driveAccessToken()).toBeNull();
    await vi.waitFor(() => expect(auth.driveAccessToken()).toBe('access-stored'));
  });

  it('follows a new sign-in at once and forgets the token with the user', async () => {
    const client = fakeClient({ signinPopup: vi.fn(async () => user('popup', NOW_S + 3600)) });
    const auth = createAuthService(client, () => NOW_MS, { driveAccess: true });

    await auth.signInWithPopup();
    expect(auth.driveAccessToken()).toBe('access-popup');
    await auth.forgetUser();
    expect(auth.driveAccessToken()).toBeNull();
  });

  it('hands out an expired token too: Drive refusing it offers the new sign-in', async () => {
    const client = fakeClient({ getUser: vi.fn(async () => user('stale', NOW_S - 10)) });
    const auth = createAuthService(client, () => NOW_MS, { driveAccess: true });
    expect(await auth.currentIdToken()).toBe('stale');
    expect(auth.driveAccessToken()).toBe('access-stale');
  });
});

describe('createUserManager', () => {
  const oidc = {
    authority: 'https://accounts.google.com',
    clientId: 'client.apps.googleusercontent.com',
    providerName: 'Google',
    scope: 'openid email profile',
  };

  it('exchanges the code at our server when it names a token endpoint, keeping the rest of discovery', async () => {
    const manager = createUserManager(
      { ...oidc, tokenEndpoint: '/backend/auth/token' },
      'https://vertrag.firma.de',
    );
    expect(manager.settings.metadataSeed).toEqual({
      token_endpoint: 'https://vertrag.firma.de/backend/auth/token',
    });
    expect(manager.settings.metadata).toBeUndefined();
    expect(manager.settings.authority).toBe('https://accounts.google.com');
  });

  it('goes to the issuer’s own token endpoint otherwise', () => {
    const manager = createUserManager(oidc, 'https://vertrag.firma.de');
    expect(manager.settings.metadataSeed).toBeUndefined();
  });
});
