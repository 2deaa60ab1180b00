import { Center, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useAuthService } from '@/lib/auth/auth-context';
import { texts } from '@/texts';

/**
 * Where the identity provider returns to, in the sign-in popup or the silent-renew iframe.
 * oidc-client-ts hands the answer to the opening window, which finishes the sign-in.
 */
export function AuthCallbackPage() {
  const auth = useAuthService();
  const [failed, setFailed] = useState(false);
  // The answer's state may be consumed only once; StrictMode runs effects twice in development.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    auth.completeSignIn().catch((error: unknown) => {
      console.error('Completing the sign-in failed', error);
      setFailed(true);
    });
  }, [auth]);

  return (
    <Center mih="100vh" p="md">
      <Text>{failed ? texts.authCallback.failed : texts.authCallback.completing}</Text>
    </Center>
  );
}
