import type { RuntimeConfig } from '@vertragsgenerator/domain';
import { type User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { delay } from '@/lib/delay';
import { PATHS } from '@/lib/paths';
import { LOCAL_STORAGE_KEYS, wasSignedOut } from '@/lib/storage';

/** Reading the stored token is tried 10 times, 100 ms apart, before the user counts as signed out. */
export const TOKEN_ATTEMPTS = 10;
const TOKEN_RETRY_DELAY_MS = 100;
/** A token this close to its expiry would likely expire between the guard's check and the next API call. */
const MIN_TOKEN_VALIDITY_SECONDS = 60;

/** The message oidc-client-ts rejects `signinPopup` with when the user closes the window. */
const POPUP_CLOSED_BY_USER = 'Popup closed by user';

export function isPopupClosedByUser(error: unknown): boolean {
  return error instanceof Error && error.message === POPUP_CLOSED_BY_USER;
}

export type OidcClient = Pick<
  UserManager,
  'getUser' | 'signinPopup' | 'signinSilent' | 'signinCallback' | 'removeUser'
>;

export function createUserManager(oidc: RuntimeConfig['oidc'], origin: string): UserManager {
  const callbackUrl = `${origin}${PATHS.authCallback}`;
  return new UserManager({
    authority: oidc.authority,
    client_id: oidc.clientId,
    scope: oidc.scope,
    response_type: 'code',
    redirect_uri: callbackUrl,
    popup_redirect_uri: callbackUrl,
    silent_redirect_uri: callbackUrl,
    // Local storage, so that a reload or a second tab keeps the sign-in.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    // The route guard renews on demand; a background timer would renew tokens nobody uses.
    automaticSilentRenew: false,
    // The rest of the issuer's metadata still comes from its discovery document.
    ...(oidc.tokenEndpoint
      ? { metadataSeed: { token_endpoint: new URL(oidc.tokenEndpoint, origin).href } }
      : {}),
  });
}

export interface FreshIdToken {
  idToken: string;
  /** True when the token came from a silent renew: the server's session is bound to the old one until `saveUser`. */
  renewed: boolean;
}

export interface AuthService {
  /** Signs in through the provider's popup; rejects when the user closes it (`isPopupClosedByUser`). */
  signInWithPopup(): Promise<void>;
  /** Completes a popup or silent sign-in inside the window the provider redirected back to. */
  completeSignIn(): Promise<void>;
  /** The stored ID token as it is, for API calls. */
  currentIdToken(): Promise<string | null>;
  /** The stored ID token, silently renewed first when it expires within a minute; null without a usable one. */
  freshIdToken(): Promise<FreshIdToken | null>;
  /** Drops the signed-in user from the browser. */
  forgetUser(): Promise<void>;
  /**
   * The OAuth access token for Google Drive, only with Google Docs as editor (null otherwise and before the
   * stored user is loaded). The browser sends it to Drive alone: our server authenticates the ID token.
   */
  driveAccessToken(): string | null;
}

export interface AuthServiceOptions {
  /** Hand out the access token for Drive: `editor: google`, whose sign-in also asks for the Drive scopes. */
  driveAccess?: boolean;
}

export function createAuthService(
  client: OidcClient,
  now: () => number = Date.now,
  { driveAccess = false }: AuthServiceOptions = {},
): AuthService {
  // The last user any call saw: `driveAccessToken` must answer synchronously, oidc-client-ts only async.
  let knownUser: User | null = null;
  let loadingUser = false;

  function remember(user: User | null): User | null {
    knownUser = user;
    return user;
  }

  function validFor(user: User): number {
    const expiresAt = user.profile.exp ?? user.expires_at ?? 0;
    return expiresAt - now() / 1000;
  }

  async function storedUser(): Promise<User | null> {
    for (let attempt = 1; attempt <= TOKEN_ATTEMPTS; attempt++) {
      const user = remember(await client.getUser());
      if (user?.id_token) return user;
      if (attempt < TOKEN_ATTEMPTS) await delay(TOKEN_RETRY_DELAY_MS);
    }
    return null;
  }

  async function renewedUser(): Promise<User | null> {
    try {
      return remember(await client.signinSilent({ nonce: crypto.randomUUID() }));
    } catch (error) {
      console.warn('Silent token renewal failed', error);
      return null;
    }
  }

  return {
    async signInWithPopup() {
      // Without abort-on-close the promise would never settle when the user closes the window. After an
      // explicit logout the provider must ask again, or the same person would be signed straight back in.
      // A fresh nonce makes every sign-in's ID token unique: the server keys a session by its token, and
      // two sign-ins of one person in one second (sign out, sign in again) would otherwise get the same
      // token, whose session the logout had ended. oidc-client-ts checks the nonce on the way back.
      remember(
        await client.signinPopup({
          popupAbortOnClose: true,
          nonce: crypto.randomUUID(),
          ...(wasSignedOut() ? { prompt: 'login' } : {}),
        }),
      );
      localStorage.removeItem(LOCAL_STORAGE_KEYS.signedOut);
    },

    async completeSignIn() {
      await client.signinCallback();
    },

    async currentIdToken() {
      return remember(await client.getUser())?.id_token ?? null;
    },

    async freshIdToken() {
      const user = await storedUser();
      if (!user?.id_token) return null;
      if (validFor(user) > MIN_TOKEN_VALIDITY_SECONDS) return { idToken: user.id_token, renewed: false };

      const renewed = await renewedUser();
      if (!renewed?.id_token || validFor(renewed) <= 0) return null;
      return { idToken: renewed.id_token, renewed: renewed.id_token !== user.id_token };
    },

    async forgetUser() {
      await client.removeUser();
      remember(null);
    },

    driveAccessToken() {
      if (!driveAccess) return null;
      // Reread the store in the background, so that a sign-in in another tab reaches the next call.
      if (!loadingUser) {
        loadingUser = true;
        client
          .getUser()
          .then(remember, (error: unknown) => console.warn('Reading the stored user failed', error))
          .finally(() => {
            loadingUser = false;
          });
      }
      // An expired token is handed out too: Drive answers it with 401, which offers a new sign-in.
      return knownUser?.access_token || null;
    },
  };
}
