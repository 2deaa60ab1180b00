import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import { z } from 'zod';
import { delay } from '@/lib/delay';

export const GOOGLE_DOCS_MIME_TYPE = 'application/vnd.google-apps.document';

/** Longest wait for one Drive call: a hanging Drive must end in the download, not in a spinner. */
export const DRIVE_CALL_TIMEOUT_MS = 30_000;

/**
 * Pauses before the retries of a Drive call that failed for a passing reason (Google's advice for 429
 * and 5xx: exponential backoff); their number is the number of retries.
 */
export const DRIVE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000];

/** A failed Drive call: Drive's HTTP status, 0 when Drive was not reached or did not answer in time. */
export class DriveRequestError extends Error {
  override readonly name = 'DriveRequestError';
  /** No answer within the time limit: the request may have reached Drive. */
  readonly timedOut: boolean;

  constructor(
    readonly status: number,
    message: string,
    options?: ErrorOptions & { timedOut?: boolean },
  ) {
    super(message, options);
    this.timedOut = options?.timedOut ?? false;
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
 * Whether a failed call may be sent again. A 429 is Drive refusing before doing anything. After a 5xx
 * or a lost connection only a call that changes nothing, or changes nothing more when repeated, is
 * repeated: a second upload or copy could leave two files in the user's Drive. A call that got no
 * answer in time is not repeated: the user has waited long enough, and the file is downloaded instead.
 */
function mayRetry(error: unknown, repeatable: boolean): boolean {
  if (!(error instanceof DriveRequestError) || error.timedOut) return false;
  if (error.status === 429) return true;
  return repeatable && (error.status === 0 || error.status >= 500);
}

interface DriveRequestInit {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: BodyInit;
}

export interface DriveApiOptions {
  /** Longest wait for one Drive request; default 30 s. */
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
}

/**
 * The browser's calls to Drive v3 under `apiUrl` (https://www.googleapis.com or a stand-in), with the
 * user's access token as bearer.
 */
export function createDriveApi(
  apiUrl: string,
  { timeoutMs = DRIVE_CALL_TIMEOUT_MS, retryDelaysMs = DRIVE_RETRY_DELAYS_MS }: DriveApiOptions = {},
): DriveApi {
  async function request<T>(
    token: string,
    path: string,
    /** `repeatable`: the call has the same effect however often it is made (reads, deletes). */
    { repeatable, ...init }: DriveRequestInit & { repeatable: boolean },
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await requestOnce(token, path, init, read);
      } catch (error) {
        const wait = retryDelaysMs[attempt];
        if (wait === undefined || !mayRetry(error, repeatable)) throw error;
        await delay(wait);
      }
    }
  }

  async function requestOnce<T>(
    token: string,
    path: string,
    init: DriveRequestInit,
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
      const timedOut = controller.signal.aborted;
      const what = timedOut ? `no answer within ${timeoutMs} ms` : 'Drive not reached';
      throw new DriveRequestError(0, `${method} ${path}: ${what}`, { cause: error, timedOut });
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
      await request(token, '/drive/v3/about?fields=user', { repeatable: true }, json(aboutSchema));
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
        {
          method: 'POST',
          headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
          body,
          repeatable: false,
        },
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
          repeatable: false,
        },
        json(copiedSchema),
      );
    },

    async deleteFile(token, fileId) {
      await request(
        token,
        `/drive/v3/files/${encodeURIComponent(fileId)}`,
        { method: 'DELETE', repeatable: true },
        async () => {},
      );
    },
  };
}
