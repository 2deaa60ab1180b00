import { delay } from '@/lib/delay';
import { texts } from '@/texts';
import { type DriveApi, type DriveFile, isUnauthorized } from './drive-api';

/** The Drive token is awaited up to 10 s, looked for every 100 ms. */
export const TOKEN_WAIT_MS = 10_000;
const TOKEN_POLL_MS = 100;

export interface GoogleDocsHandOverDeps {
  drive: DriveApi;
  /** The Drive access token; null while none is known. */
  driveAccessToken: () => string | null;
  /** Asks the user to sign in again after Drive refused the token; true once signed in anew. */
  renewDriveSession: () => Promise<boolean>;
  /** Saves the file in the browser: the way out whenever Drive does not take the document. */
  download: (blob: Blob, fileName: string) => void;
  notify: (message: string) => void;
}

export type GoogleDocsHandOver =
  /** The Google Doc exists: the caller opens `url` in a new tab, and offers this tab when that is blocked. */
  | { kind: 'open'; url: string }
  /** The browser saved the file instead; the user was told why. */
  | { kind: 'downloaded' };

/**
 * Hands a generated DOCX to Google Docs: uploads it to the user's Drive, has Drive convert a
 * copy into a Google Doc and removes the upload again. Resolves with the document's URL for the caller to
 * open, since only the caller knows how to deal with a blocked tab. An expired token offers one new
 * sign-in; any other failure downloads the file. Never rejects.
 */
export async function handOverToGoogleDocs(
  file: DriveFile,
  deps: GoogleDocsHandOverDeps,
): Promise<GoogleDocsHandOver> {
  for (let attempt = 1; ; attempt++) {
    const token = await waitForToken(deps.driveAccessToken);
    if (!token) return downloadInstead(file, deps, texts.googleDrive.noToken);
    try {
      return { kind: 'open', url: await createGoogleDoc(deps.drive, token, file) };
    } catch (error) {
      if (attempt === 1 && isUnauthorized(error)) {
        if (await deps.renewDriveSession()) continue;
        return downloadInstead(file, deps, texts.googleDrive.downloadedInstead);
      }
      console.error('Handing the document over to Google Docs failed', error);
      return downloadInstead(file, deps, texts.googleDrive.uploadFailed);
    }
  }
}

async function waitForToken(driveAccessToken: () => string | null): Promise<string | null> {
  for (let waited = 0; ; waited += TOKEN_POLL_MS) {
    const token = driveAccessToken();
    if (token) return token;
    if (waited >= TOKEN_WAIT_MS) return null;
    await delay(TOKEN_POLL_MS);
  }
}

/** Resolves with the URL of the new Google Doc. */
async function createGoogleDoc(drive: DriveApi, token: string, file: DriveFile): Promise<string> {
  // Validated first: an expired token shows before any file reaches Drive.
  await drive.checkToken(token);
  const uploadId = await drive.uploadDocx(token, file);
  try {
    // Google Docs names carry no file extension.
    const doc = await drive.copyAsGoogleDoc(token, uploadId, file.fileName.replace(/\.docx$/i, ''));
    return doc.webViewLink ?? `https://docs.google.com/document/d/${encodeURIComponent(doc.id)}/edit`;
  } finally {
    // The upload was only the source of the conversion. Removing it must neither delay the document
    // nor fail the hand-over: at worst a stray DOCX stays in the user's Drive.
    drive
      .deleteFile(token, uploadId)
      .catch((error: unknown) => console.warn('Deleting the uploaded DOCX from Drive failed', error));
  }
}

function downloadInstead(file: DriveFile, deps: GoogleDocsHandOverDeps, message: string): GoogleDocsHandOver {
  deps.download(file.blob, file.fileName);
  deps.notify(message);
  return { kind: 'downloaded' };
}
