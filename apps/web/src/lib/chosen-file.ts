import { texts } from '@/texts';

/** A chosen file the browser can no longer read: changed, moved or deleted on disk since it was chosen. */
export class UnreadableFileError extends Error {
  constructor(cause: unknown) {
    super(texts.unreadableFile, { cause });
    this.name = 'UnreadableFileError';
  }
}

/**
 * The bytes of a file the user chose, read now. A browser refuses to read a chosen file that changed on
 * disk since (saved again from Excel, say); sent as it is, that refusal would surface as a failed upload
 * and blame the server.
 */
export async function readChosenFile(file: File): Promise<Blob> {
  try {
    return new Blob([await file.arrayBuffer()], { type: file.type });
  } catch (error) {
    throw new UnreadableFileError(error);
  }
}
