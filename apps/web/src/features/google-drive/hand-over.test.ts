import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readText } from '@/test/files';
import { type ApiAnswer, jsonResponse, stubApi } from '@/test/utils';
import { createDriveApi, GOOGLE_DOCS_MIME_TYPE } from './drive-api';
import { type GoogleDocsHandOverDeps, handOverToGoogleDocs } from './hand-over';

const API = 'https://drive.example';
const ABOUT = `GET ${API}/drive/v3/about`;
const UPLOAD = `POST ${API}/upload/drive/v3/files`;
const COPY = `POST ${API}/drive/v3/files/upload-1/copy`;
const DELETE = `DELETE ${API}/drive/v3/files/`;
const DOC_URL = 'https://docs.google.com/document/d/doc-1/edit?usp=drivesdk';

const FILE_NAME = 'PL-10001 Einzelauftrag Kunde Elbwerk Grün.docx';
const file = () => ({ blob: new Blob(['PK-docx-bytes'], { type: DOCX_MIME_TYPE }), fileName: FILE_NAME });

const NO_TOKEN = 'Kein Authentifizierungstoken vorhanden. Bitte melde dich erneut an.';
const UPLOAD_FAILED =
  'Das Hochladen zu Google Drive ist fehlgeschlagen. Das Dokument wurde stattdessen heruntergeladen.';
const DOWNLOADED_INSTEAD = 'Das Dokument wurde stattdessen heruntergeladen.';

const ok = {
  about: () => jsonResponse(200, { user: { displayName: 'Lena Legal', emailAddress: 'legal@demo.local' } }),
  upload: () => jsonResponse(200, { id: 'upload-1' }),
  copy: () => jsonResponse(200, { id: 'doc-1', webViewLink: DOC_URL }),
  delete: () => new Response(null, { status: 204 }),
};
const unauthorized = () => jsonResponse(401, { error: { code: 401, message: 'Invalid Credentials' } });
const serverError = () => jsonResponse(500, { error: { code: 500, message: 'Backend Error' } });
/** A Drive that never answers: only the caller's abort ends the request. */
const hanging = (init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

type Step = keyof typeof ok;

function stubDrive(answers: Partial<Record<Step, ApiAnswer | ApiAnswer[]>> = {}) {
  return stubApi({
    [ABOUT]: answers.about ?? ok.about,
    [UPLOAD]: answers.upload ?? ok.upload,
    [COPY]: answers.copy ?? ok.copy,
    [DELETE]: answers.delete ?? ok.delete,
  });
}

function fakeDeps(overrides: Partial<GoogleDocsHandOverDeps> = {}) {
  return {
    drive: createDriveApi(API),
    driveAccessToken: vi.fn<() => string | null>(() => 'token-1'),
    renewDriveSession: vi.fn(async () => false),
    download: vi.fn<(blob: Blob, fileName: string) => void>(),
    notify: vi.fn<(message: string) => void>(),
    ...overrides,
  };
}

/** `METHOD URL` of every Drive call, in order. */
function calls(fetchMock: ReturnType<typeof stubDrive>['fetchMock']): string[] {
  return fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`);
}

function bearerOf(fetchMock: ReturnType<typeof stubDrive>['fetchMock']): string[] {
  return fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('Authorization') ?? '');
}

/** The parts of a multipart body: their headers (lower-cased names) and content. */
function multipartParts(body: string, boundary: string) {
  const sections = body.split(`--${boundary}`);
  expect(sections.at(-1)).toBe('--\r\n');
  expect(sections[0]).toBe('');
  return sections.slice(1, -1).map((section) => {
    expect(section.startsWith('\r\n') && section.endsWith('\r\n')).toBe(true);
    const [head = '', ...content] = section.slice(2, -2).split('\r\n\r\n');
    const headers = Object.fromEntries(
      head.split('\r\n').map((line) => {
        const [name = '', value = ''] = line.split(/:\s*/, 2);
        return [name.toLowerCase(), value];
      }),
    );
    return { headers, content: content.join('\r\n\r\n') };
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
});

describe('handOverToGoogleDocs', () => {
  it('checks the token, uploads, converts a copy, deletes the upload and answers the document URL', async () => {
    const { fetchMock } = stubDrive();
    const deps = fakeDeps();

    expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'open', url: DOC_URL });

    expect(calls(fetchMock)).toEqual([
      `GET ${API}/drive/v3/about?fields=user`,
      `POST ${API}/upload/drive/v3/files?uploadType=multipart&fields=id`,
      `POST ${API}/drive/v3/files/upload-1/copy?fields=id,webViewLink`,
      `DELETE ${API}/drive/v3/files/upload-1`,
    ]);
    expect(bearerOf(fetchMock)).toEqual(Array(4).fill('Bearer token-1'));
    expect(deps.download).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('uploads a multipart/related body: JSON metadata, then the DOCX', async () => {
    const { fetchMock } = stubDrive();
    await handOverToGoogleDocs(file(), fakeDeps());

    const init = fetchMock.mock.calls[1]?.[1];
    const contentType = new Headers(init?.headers).get('Content-Type') ?? '';
    const boundary = /^multipart\/related; boundary=([\w-]{20,})$/.exec(contentType)?.[1];
    expect(boundary, contentType).toBeDefined();
    if (!boundary || !(init?.body instanceof Blob)) throw new Error('no multipart body');

    const [metadata, media, ...rest] = multipartParts(await readText(init.body), boundary);
    expect(rest).toEqual([]);
    expect(metadata?.headers).toEqual({ 'content-type': 'application/json; charset=UTF-8' });
    expect(JSON.parse(metadata?.content ?? '')).toEqual({ name: FILE_NAME, mimeType: DOCX_MIME_TYPE });
    expect(media?.headers).toEqual({ 'content-type': DOCX_MIME_TYPE });
    expect(media?.content).toBe('PK-docx-bytes');
  });

  it('has Drive convert the copy into a Google Doc named like the file, and deletes the upload, not the copy', async () => {
    const { callsTo } = stubDrive();
    await handOverToGoogleDocs(file(), fakeDeps());

    expect(callsTo(COPY)).toEqual([
      {
        url: `${API}/drive/v3/files/upload-1/copy?fields=id,webViewLink`,
        body: { name: 'PL-10001 Einzelauftrag Kunde Elbwerk Grün', mimeType: GOOGLE_DOCS_MIME_TYPE },
      },
    ]);
    expect(callsTo(DELETE).map((call) => call.url)).toEqual([`${API}/drive/v3/files/upload-1`]);
  });

  it('builds the Docs URL itself when Drive leaves out webViewLink', async () => {
    stubDrive({ copy: () => jsonResponse(200, { id: 'doc 2' }) });
    expect(await handOverToGoogleDocs(file(), fakeDeps())).toEqual({
      kind: 'open',
      url: 'https://docs.google.com/document/d/doc%202/edit',
    });
  });

  it('opens the document although deleting the upload fails', async () => {
    vi.useFakeTimers();
    const { callsTo } = stubDrive({ delete: serverError });
    expect(await handOverToGoogleDocs(file(), fakeDeps())).toEqual({ kind: 'open', url: DOC_URL });
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(console.warn).toHaveBeenCalled();
    expect(callsTo(DELETE)).toHaveLength(4);
  });

  describe('the token', () => {
    it('waits for a token that turns up after 300 ms', async () => {
      vi.useFakeTimers();
      const { fetchMock } = stubDrive();
      const driveAccessToken = vi
        .fn<() => string | null>()
        .mockReturnValueOnce(null)
        .mockReturnValueOnce(null)
        .mockReturnValueOnce(null)
        .mockReturnValue('late-token');
      const result = handOverToGoogleDocs(file(), fakeDeps({ driveAccessToken }));

      await vi.advanceTimersByTimeAsync(299);
      expect(fetchMock).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ kind: 'open', url: DOC_URL });
      expect(driveAccessToken).toHaveBeenCalledTimes(4);
      expect(bearerOf(fetchMock)[0]).toBe('Bearer late-token');
    });

    it('downloads with the German message when no token turns up within 10 s', async () => {
      vi.useFakeTimers();
      const { fetchMock } = stubDrive();
      const deps = fakeDeps({ driveAccessToken: vi.fn(() => null) });
      const result = handOverToGoogleDocs(file(), deps);

      await vi.advanceTimersByTimeAsync(9_999);
      expect(deps.download).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ kind: 'downloaded' });
      expect(deps.download).toHaveBeenCalledWith(expect.any(Blob), FILE_NAME);
      expect(deps.notify).toHaveBeenCalledWith(NO_TOKEN);
      expect(deps.driveAccessToken).toHaveBeenCalledTimes(101);
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('treats an answer of about without the user as a failure', async () => {
      const { fetchMock } = stubDrive({ about: () => jsonResponse(200, {}) });
      const deps = fakeDeps();
      expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'downloaded' });
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
      expect(calls(fetchMock)).toEqual([`GET ${API}/drive/v3/about?fields=user`]);
    });
  });

  describe('an expired token (401)', () => {
    it('asks to sign in again, then retries once with the new token', async () => {
      const { fetchMock } = stubDrive({ about: [unauthorized, ok.about] });
      const driveAccessToken = vi.fn(() => 'old-token');
      const deps = fakeDeps({
        driveAccessToken,
        renewDriveSession: vi.fn(async () => {
          driveAccessToken.mockReturnValue('new-token');
          return true;
        }),
      });

      expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'open', url: DOC_URL });
      expect(deps.renewDriveSession).toHaveBeenCalledOnce();
      expect(calls(fetchMock).map((call) => call.split('?')[0])).toEqual([
        `GET ${API}/drive/v3/about`,
        `GET ${API}/drive/v3/about`,
        `POST ${API}/upload/drive/v3/files`,
        `POST ${API}/drive/v3/files/upload-1/copy`,
        `DELETE ${API}/drive/v3/files/upload-1`,
      ]);
      expect(bearerOf(fetchMock)).toEqual(['Bearer old-token', ...Array(4).fill('Bearer new-token')]);
      expect(deps.download).not.toHaveBeenCalled();
    });

    it('downloads when the user answers "Nein"', async () => {
      const { fetchMock } = stubDrive({ about: unauthorized });
      const deps = fakeDeps();

      expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'downloaded' });
      expect(deps.renewDriveSession).toHaveBeenCalledOnce();
      expect(deps.download).toHaveBeenCalledWith(expect.any(Blob), FILE_NAME);
      expect(deps.notify).toHaveBeenCalledWith(DOWNLOADED_INSTEAD);
      expect(fetchMock).toHaveBeenCalledOnce();
    });

    it('counts at any step, and asks only once', async () => {
      const { callsTo } = stubDrive({ copy: unauthorized });
      const deps = fakeDeps({ renewDriveSession: vi.fn(async () => true) });

      expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'downloaded' });
      expect(deps.renewDriveSession).toHaveBeenCalledOnce();
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
      // Both uploads are removed again although their copies failed.
      await vi.waitFor(() => expect(callsTo(DELETE)).toHaveLength(2));
    });
  });

  describe('other failures download the file', () => {
    it('a 500 of the upload', async () => {
      const { fetchMock } = stubDrive({ upload: serverError });
      const deps = fakeDeps();

      expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'downloaded' });
      expect(deps.download).toHaveBeenCalledWith(expect.any(Blob), FILE_NAME);
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
      expect(deps.renewDriveSession).not.toHaveBeenCalled();
      expect(fetchMock).toHaveBeenCalledTimes(2);
    });

    it('an unreachable Drive, after retries of the token check', async () => {
      vi.useFakeTimers();
      const { callsTo } = stubDrive({ about: new TypeError('Failed to fetch') });
      const deps = fakeDeps();
      const result = handOverToGoogleDocs(file(), deps);
      await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 3_999);
      expect(callsTo(ABOUT)).toHaveLength(3);
      expect(deps.download).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ kind: 'downloaded' });
      expect(callsTo(ABOUT)).toHaveLength(4);
      expect(callsTo(UPLOAD)).toEqual([]);
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
    });

    it('a Drive that does not answer within 30 s', async () => {
      vi.useFakeTimers();
      const { fetchMock } = stubDrive({ copy: hanging });
      const deps = fakeDeps();
      const result = handOverToGoogleDocs(file(), deps);

      await vi.advanceTimersByTimeAsync(29_999);
      expect(deps.download).not.toHaveBeenCalled();
      const copy = fetchMock.mock.calls[2]?.[1];
      expect(copy?.signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ kind: 'downloaded' });
      expect(copy?.signal?.aborted).toBe(true);
      // The copy may have been made after all: a second one could leave two documents.
      expect(calls(fetchMock).filter((call) => call.startsWith(COPY))).toHaveLength(1);
      expect(deps.download).toHaveBeenCalledWith(expect.any(Blob), FILE_NAME);
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
    });
  });

  describe('passing failures of Drive are retried with growing pauses', () => {
    const rateLimited = () => jsonResponse(429, { error: { code: 429, message: 'Rate Limit Exceeded' } });
    const unavailable = () => jsonResponse(503, { error: { code: 503, message: 'Service Unavailable' } });

    it('checks the token again after a 503 and a dropped connection', async () => {
      vi.useFakeTimers();
      const { callsTo } = stubDrive({ about: [unavailable, new TypeError('Failed to fetch'), ok.about] });
      const deps = fakeDeps();
      const result = handOverToGoogleDocs(file(), deps);
      await vi.advanceTimersByTimeAsync(999);
      expect(callsTo(ABOUT)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(callsTo(ABOUT)).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await result).toEqual({ kind: 'open', url: DOC_URL });
      expect(callsTo(ABOUT)).toHaveLength(3);
      expect(deps.download).not.toHaveBeenCalled();
    });

    it('repeats an upload Drive refused with 429 (it made nothing), and the document opens', async () => {
      vi.useFakeTimers();
      const { callsTo } = stubDrive({ upload: [rateLimited, rateLimited, ok.upload] });
      const deps = fakeDeps();
      const result = handOverToGoogleDocs(file(), deps);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(await result).toEqual({ kind: 'open', url: DOC_URL });
      expect(callsTo(UPLOAD)).toHaveLength(3);
      expect(callsTo(COPY)).toHaveLength(1);
    });

    it('never repeats an upload or a copy after a 5xx or a dropped connection: no second file', async () => {
      for (const failure of [serverError, () => new TypeError('Failed to fetch')]) {
        for (const step of ['upload', 'copy'] as const) {
          const { callsTo } = stubDrive({ [step]: [failure, ok[step]] });
          const deps = fakeDeps();
          expect(await handOverToGoogleDocs(file(), deps)).toEqual({ kind: 'downloaded' });
          expect(callsTo(step === 'upload' ? UPLOAD : COPY)).toHaveLength(1);
          expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
        }
      }
    });

    it('deletes the upload again after a 503', async () => {
      vi.useFakeTimers();
      const { callsTo } = stubDrive({ delete: [unavailable, ok.delete] });
      expect(await handOverToGoogleDocs(file(), fakeDeps())).toEqual({ kind: 'open', url: DOC_URL });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(callsTo(DELETE)).toHaveLength(2);
    });

    it('gives up after three retries and downloads the file with the German message', async () => {
      vi.useFakeTimers();
      const { callsTo } = stubDrive({ about: unavailable });
      const deps = fakeDeps();
      const result = handOverToGoogleDocs(file(), deps);
      await vi.advanceTimersByTimeAsync(7_000);
      expect(await result).toEqual({ kind: 'downloaded' });
      expect(callsTo(ABOUT)).toHaveLength(4);
      expect(deps.download).toHaveBeenCalledWith(expect.any(Blob), FILE_NAME);
      expect(deps.notify).toHaveBeenCalledWith(UPLOAD_FAILED);
    });
  });
});
