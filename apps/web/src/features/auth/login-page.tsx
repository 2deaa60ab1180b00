import { Alert, Button, Center, Stack, Title } from '@mantine/core';
import { isPermissionLevel } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { delay } from '../../lib/delay';
import { PATHS } from '../../lib/paths';
import { useRuntimeConfig } from '../../lib/runtime-config';
import { rememberUser } from '../../lib/storage';
import { texts } from '../../texts';
import { saveUser } from './api';
import { useAuthService } from './auth-context';
import { isPopupClosedByUser } from './auth-service';
import { endLocalSession } from './session';

/** SPEC §4: the user is saved on the backend about 300 ms after the popup returns. */
const SAVE_USER_DELAY_MS = 300;

type SignInOutcome = { kind: 'signedIn' } | { kind: 'message'; text: string };

export function LoginPage() {
  const auth = useAuthService();
  const { oidc } = useRuntimeConfig();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

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
      if (isPermissionLevel(user.permission)) {
        rememberUser(user);
        return { kind: 'signedIn' };
      }
      // No permission: stay on /login (DESIGN §10.3) and drop the sign-in, so the route guard refuses it too.
      await endLocalSession(auth);
      return { kind: 'message', text: texts.login.noPermission };
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
      if (outcome.kind === 'signedIn') await navigate(PATHS.start);
      else setMessage(outcome.text);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="lg" maw={480}>
        <Title order={1}>{texts.appTitle}</Title>
        <Button size="lg" onClick={handleClick} loading={busy}>
          {texts.login.signInWith(oidc.providerName)}
        </Button>
        {message && (
          <Alert color="red" w="100%">
            {message}
          </Alert>
        )}
      </Stack>
    </Center>
  );
}
