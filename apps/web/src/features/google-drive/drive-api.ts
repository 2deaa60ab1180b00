import { z } from 'zod';

export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const GOOGLE_DOCS_MIME_TYPE = 'application/vnd.google-apps.document';

/** Longest wait for one Drive call: a hanging Drive must end in the download, not in a spinner. */
export const DRIVE_CALL_TIMEOUT_MS = 30_000;

/** A failed Drive call: Drive's HTTP status, 0 when Drive was not reached or did not answer in time. */
export class DriveRequestError extends Error {
  override readonly name = 'DriveRequestError';

  constructor(
    readonly status: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Drive refuses the access token: it expired or was revoked, only a new sign-in helps. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof DriveRequestError && error.status === 401;
}

export interface DriveFile {
  blob: Blob;
  fileName: string;
}

export interface DriveApi {
  /** about.get for the user: the cheapest call that proves the token valid. */
  checkToken(token: string): Promise<void>;
  /** Uploads a DOCX as it is and answers with its file ID. */
  uploadDocx(token: string, file: DriveFile): Promise<string>;
  /** Copies a file into a new Google Doc (the conversion) and answers with the new document. */
  copyAsGoogleDoc(token: string, fileId: string, name: string): Promise<{ id: string; webViewLink?: string }>;
  deleteFile(token: string, fileId: string): Promise<void>;
}

const aboutSchema = z.object({ user: z.object({}) });
const createdSchema = z.object({ id: z.string().min(1) });
const copiedSchema = z.object({ id: z.string().min(1), webViewLink: z.string().url().optional() });

/** 128 random bits: the boundary must not occur in the DOCX, which is binary. */
function newBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `vertragsgenerator-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The browser's calls to Drive v3 under `apiUrl` (https://www.googleapis.com or a stand-in), with the
 * user's access token as bearer.
 */
export function createDriveApi(apiUrl: string, timeoutMs = DRIVE_CALL_TIMEOUT_MS): DriveApi {
  async function request<T>(
    token: string,
    path: string,
    init: { method?: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: BodyInit },
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const method = init.method ?? 'GET';
    const controller = new AbortController();
    // The timer also covers reading the body; a plain timer (not AbortSignal.timeout) so that tests'
    // fake timers drive it.
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(`${apiUrl}${path}`, {
        ...init,
        headers: { ...init.headers, Authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      if (!response.ok) {
        throw new DriveRequestError(
          response.status,
          `Drive answered ${method} ${path} with ${response.status}`,
        );
      }
      return await read(response);
    } catch (error) {
      if (error instanceof DriveRequestError) throw error;
      const what = controller.signal.aborted ? `no answer within ${timeoutMs} ms` : 'Drive not reached';
      throw new DriveRequestError(0, `${method} ${path}: ${what}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  function json<T>(schema: z.ZodType<T>) {
    return async (response: Response): Promise<T> => {
      const parsed = schema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) {
        throw new DriveRequestError(response.status, `Unexpected answer of Drive (${response.url})`, {
          cause: parsed.error,
        });
      }
      return parsed.data;
    };
  }

  return {
    async checkToken(token) {
      await request(token, '/drive/v3/about?fields=user', {}, json(aboutSchema));
    },

    async uploadDocx(token, file) {
      // A multipart upload (RFC 2387): the metadata as JSON, then the file, in one request.
      const boundary = newBoundary();
      const metadata = JSON.stringify({ name: file.fileName, mimeType: DOCX_MIME_TYPE });
      const body = new Blob([
        `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${metadata}\r\n`,
        `--${boundary}\r\nContent-Type: ${DOCX_MIME_TYPE}\r\n\r\n`,
        file.blob,
        `\r\n--${boundary}--\r\n`,
      ]);
      const created = await request(
        token,
        '/upload/drive/v3/files?uploadType=multipart&fields=id',
        { method: 'POST', headers: { 'Content-Type': `multipart/related; boundary=${boundary}` }, body },
        json(createdSchema),
      );
      return created.id;
    },

    copyAsGoogleDoc(token, fileId, name) {
      return request(
        token,
        `/drive/v3/files/${encodeURIComponent(fileId)}/copy?fields=id,webViewLink`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          // A target type other than the source's makes Drive convert the copy.
          body: JSON.stringify({ name, mimeType: GOOGLE_DOCS_MIME_TYPE }),
        },
        json(copiedSchema),
      );
    },

    async deleteFile(token, fileId) {
      await request(
        token,
        `/drive/v3/files/${encodeURIComponent(fileId)}`,
        { method: 'DELETE' },
        async () => {},
      );
    },
  };
}
