import { modals } from '@mantine/modals';
import type { AuthService } from '@/lib/auth/auth-service';
import { saveUser } from '@/lib/auth/session-api';
import { rememberUser } from '@/lib/storage';
import { texts } from '@/texts';

let pending: Promise<boolean> | null = null;

/**
 * Asks whether to sign in again because Drive refused the token, and on "Ja" does so through the sign-in
 * popup. Resolves with whether there is a new sign-in. The token monitor and a hand-over may meet the
 * expired token at the same time: they share one question.
 */
export function renewDriveSession(auth: AuthService): Promise<boolean> {
  pending ??= askAndSignIn(auth).finally(() => {
    pending = null;
  });
  return pending;
}

function askAndSignIn(auth: AuthService): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: texts.googleDrive.title,
      children: texts.googleDrive.sessionExpired,
      labels: { confirm: texts.googleDrive.yes, cancel: texts.googleDrive.no },
      // Synchronously within the click: a popup opened after an await would meet the popup blocker.
      onConfirm: () => resolve(signInAgain(auth)),
      // Called after onConfirm too, when resolving no longer changes anything; on its own it is "Nein",
      // Escape, the close button or a click outside.
      onClose: () => resolve(false),
    });
  });
}

async function signInAgain(auth: AuthService): Promise<boolean> {
  try {
    await auth.signInWithPopup();
    // The server's session belongs to the old ID token: the new one must open its own (as at login).
    rememberUser(await saveUser());
    return true;
  } catch (error) {
    console.error('Signing in again for Google Drive failed', error);
    return false;
  }
}
