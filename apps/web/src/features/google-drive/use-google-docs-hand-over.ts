import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { useAuthService } from '@/lib/auth/auth-context';
import { downloadFile } from '@/lib/download';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { texts } from '@/texts';
import { createDriveApi, type DriveFile } from './drive-api';
import { type GoogleDocsHandOver, handOverToGoogleDocs } from './hand-over';
import { renewDriveSession } from './session-renewal';

/** `handOverToGoogleDocs` wired to the app: runtime config, sign-in, download and notifications. */
export function useGoogleDocsHandOver(): (file: DriveFile) => Promise<GoogleDocsHandOver> {
  const { googleDriveApiUrl } = useRuntimeConfig();
  const auth = useAuthService();
  return useCallback(
    (file: DriveFile) =>
      handOverToGoogleDocs(file, {
        drive: createDriveApi(googleDriveApiUrl),
        driveAccessToken: () => auth.driveAccessToken(),
        renewDriveSession: () => renewDriveSession(auth),
        download: downloadFile,
        notify: (message) => notifications.show({ color: 'yellow', title: texts.googleDrive.title, message }),
      }),
    [googleDriveApiUrl, auth],
  );
}
