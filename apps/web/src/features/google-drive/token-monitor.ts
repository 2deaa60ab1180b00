import { useEffect } from 'react';
import { useAuthService } from '@/lib/auth/auth-context';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { createDriveApi, isUnauthorized } from './drive-api';
import { renewDriveSession } from './session-renewal';

export const TOKEN_CHECK_INTERVAL_MS = 30_000;

/**
 * With Google Docs as editor, checks the Drive token every 30 s while the app is open, so that
 * the user renews an expired one before a generation runs into it.
 */
export function useDriveTokenMonitor(): void {
  const { editor, googleDriveApiUrl } = useRuntimeConfig();
  const auth = useAuthService();

  useEffect(() => {
    if (editor !== 'google') return;
    const drive = createDriveApi(googleDriveApiUrl);
    // Without this, a "Nein" would be asked again every 30 s; a new token (another tab) is checked again.
    let declinedToken: string | null = null;
    // A check waits for the user's answer; ticks meanwhile would only pile up.
    let checking = false;

    async function check() {
      const token = auth.driveAccessToken();
      if (!token || token === declinedToken || checking) return;
      checking = true;
      try {
        await drive.checkToken(token);
      } catch (error) {
        // Other failures (offline, Drive down) say nothing about the token: the hand-over copes with them.
        if (isUnauthorized(error) && !(await renewDriveSession(auth))) declinedToken = token;
      } finally {
        checking = false;
      }
    }

    const timer = setInterval(check, TOKEN_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [editor, googleDriveApiUrl, auth]);
}
