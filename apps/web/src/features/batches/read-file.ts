import { UnreadableFileError } from '@/lib/chosen-file';

/** Up to this many bytes per file, as the server accepts them (its base64 limit, 4,000,000 characters). */
export const BATCH_FILE_MAX_BYTES = 3_000_000;

/**
 * A chosen file's bytes as base64, as `POST /backend/batches` takes them. A file changed on disk since it
 * was chosen cannot be read: that is said as such, not blamed on the server.
 */
export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      // A data URL: `data:<type>;base64,<content>`.
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new UnreadableFileError(reader.error));
    reader.readAsDataURL(file);
  });
}
