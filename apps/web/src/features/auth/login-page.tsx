import { Alert, Button, Center, Stack, Title } from '@mantine/core';
import type { SessionUser } from '@vertragsgenerator/domain';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuthService } from '@/lib/auth/auth-context';
import { isPopupClosedByUser } from '@/lib/auth/auth-service';
import { delay } from '@/lib/delay';
import { PATHS } from '@/lib/paths';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { storedUserMail } from '@/lib/storage';
import { texts } from '@/texts';

/**
 * The calls to the server, with the API client and the domain's schemas, load once they are needed (a
 * click, a stored sign-in): showing /login needs none of them (bench/size).
 */
const loadSession = () => import('./session');
const AccessRequestPanel = lazy(async () => {
  const [{ AccessRequestPanel: Panel }, { PageProviders }] = await Promise.all([
    import('./access-request-panel'),
    import('@/components/page-providers'),
  ]);
  return {
    default: () => (
      <PageProviders>
        <Panel />
      </PageProviders>
    ),
  };
});

/** The user is saved on the backend about 300 ms after the popup returns. */
const SAVE_USER_DELAY_MS = 300;

type SignInOutcome = { kind: 'signedIn'; user: SessionUser } | { kind: 'message'; text: string };

/** Where a signed-in user belongs: the documents, the administration, or nowhere yet (null). */
function destinationOf(user: SessionUser): string | null {
  if (user.permission !== null) return PATHS.start;
  return user.administrator ? PATHS.administration : null;
}

export function LoginPage() {
  const auth = useAuthService();
  const { oidc } = useRuntimeConfig();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  /** Signed in without a level: stays here, signed in, and may ask Team-Operations for access. */
  const [waiting, setWaiting] = useState<SessionUser | null>(null);

  // A reload of /login by someone signed in: granted meanwhile → on to the app; still waiting → the request.
  useEffect(() => {
    if (storedUserMail() === null) return;
    let current = true;
    void loadSession().then(async ({ verifySession }) => {
      const check = await verifySession(auth);
      if (!current || check.state !== 'valid') return;
      const destination = destinationOf(check.user);
      if (destination) await navigate(destination);
      else setWaiting(check.user);
    });
    return () => {
      current = false;
    };
  }, [auth, navigate]);

  async function signIn(): Promise<SignInOutcome> {
    // Loads while the popup is open; its failure counts where the session is opened with it.
    const session = loadSession();
    session.catch(() => {});
    try {
      await auth.signInWithPopup();
    } catch (error) {
      if (isPopupClosedByUser(error)) return { kind: 'message', text: texts.login.popupClosed };
      console.error('Sign-in with the identity provider failed', error);
      return { kind: 'message', text: texts.login.authenticationFailed };
    }

    await delay(SAVE_USER_DELAY_MS);
    const user = await session.then(
      ({ openSession }) => openSession(auth),
      (error: unknown) => {
        console.error('Loading the session calls failed', error);
        return null;
      },
    );
    return user ? { kind: 'signedIn', user } : { kind: 'message', text: texts.login.saveUserFailed };
  }

  async function handleClick() {
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await signIn();
      if (outcome.kind === 'message') return setMessage(outcome.text);
      const destination = destinationOf(outcome.user);
      if (destination) await navigate(destination);
      else setWaiting(outcome.user);
    } finally {
      setBusy(false);
    }
  }

  async function handleLogout() {
    const { logout } = await loadSession();
    await logout(auth);
    setWaiting(null);
  }

  return (
    <Center component="main" mih="100vh" p="md">
      <Stack align="center" gap="lg" maw={480} w="100%">
        <Title order={1}>{texts.appTitle}</Title>
        {waiting ? (
          <>
            <Alert color="yellow" w="100%" role="status">
              {texts.login.noPermission}
            </Alert>
            <Suspense fallback={null}>
              <AccessRequestPanel />
            </Suspense>
            <Button variant="default" onClick={handleLogout}>
              {texts.login.signOut(waiting.email)}
            </Button>
          </>
        ) : (
          <Button size="lg" onClick={handleClick} loading={busy}>
            {texts.login.signInWith(oidc.providerName)}
          </Button>
        )}
        {message && (
          <Alert color="red" w="100%" role="alert">
            {message}
          </Alert>
        )}
      </Stack>
    </Center>
  );
}
