import type { PermissionLevel, SessionUser } from '@vertragsgenerator/domain';

/**
 * Browser storage keys. Only `matchId`, `userMail` and `permission` are kept in local storage
 * (docs/decisions.md#match-values-not-in-local-storage); the tokens live in oidc-client-ts's own user store.
 */
export const LOCAL_STORAGE_KEYS = {
  matchId: 'matchId',
  userMail: 'userMail',
  permission: 'permission',
  /** Set by an explicit logout: the next sign-in asks for credentials instead of reusing the provider's session. */
  signedOut: 'signedOut',
} as const;

export const SESSION_STORAGE_KEYS = {
  routerHistory: 'router-history',
} as const;

export function rememberUser(user: Pick<SessionUser, 'email' | 'permission'>): void {
  localStorage.setItem(LOCAL_STORAGE_KEYS.userMail, user.email);
  rememberPermission(user.permission);
}

export function rememberPermission(level: PermissionLevel | null): void {
  if (level === null) localStorage.removeItem(LOCAL_STORAGE_KEYS.permission);
  else localStorage.setItem(LOCAL_STORAGE_KEYS.permission, String(level));
}

export function storedUserMail(): string | null {
  return localStorage.getItem(LOCAL_STORAGE_KEYS.userMail);
}

export function storedMatchId(): string | null {
  return localStorage.getItem(LOCAL_STORAGE_KEYS.matchId);
}

export function rememberMatchId(matchId: string): void {
  localStorage.setItem(LOCAL_STORAGE_KEYS.matchId, matchId);
}

export function markSignedOut(): void {
  localStorage.setItem(LOCAL_STORAGE_KEYS.signedOut, '1');
}

/** Whether the user logged out explicitly since the last sign-in. */
export function wasSignedOut(): boolean {
  return localStorage.getItem(LOCAL_STORAGE_KEYS.signedOut) === '1';
}
