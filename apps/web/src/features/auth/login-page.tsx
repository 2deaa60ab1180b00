import { Alert, Button, Center, Stack, Title } from '@mantine/core';
import type { SessionUser } from '@vertragsgenerator/domain';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuthService } from '@/lib/auth/auth-context';
import { isPopupClosedByUser } from '@/lib/auth/auth-service';
import { saveUser } from '@/lib/auth/session-api';
import { delay } from '@/lib/delay';
import { PATHS } from '@/lib/paths';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { rememberUser, storedUserMail } from '@/lib/storage';
import { texts } from '@/texts';
import { AccessRequestPanel } from './access-request-panel';
import { endLocalSession, logout, verifySession } from './session';

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
    void verifySession(auth).then(async (check) => {
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
    try {
      await auth.signInWithPopup();
    } catch (error) {
      if (isPopupClosedByUser(error)) return { kind: 'message', text: texts.login.popupClosed };
      console.error('Sign-in with the identity provider failed', error);
      return { kind: 'message', text: texts.login.authenticationFailed };
    }

    await delay(SAVE_USER_DELAY_MS);
    try {
      const user = await saveUser();
      rememberUser(user);
      return { kind: 'signedIn', user };
    } catch (error) {
      console.error('saveUser failed', error);
      await endLocalSession(auth);
      return { kind: 'message', text: texts.login.saveUserFailed };
    }
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
            <AccessRequestPanel />
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
