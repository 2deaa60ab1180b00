import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const GOOGLE_DOCS_MIME_TYPE = 'application/vnd.google-apps.document';

/** The Drive v3 calls of the Google Docs hand-over. */
export type DriveStep = 'about' | 'upload' | 'copy' | 'delete';
export type DriveFailure = 401 | 500 | 'hang';

export interface DriveFakeOptions {
  port: number;
  /** The app's origin: CORS lets only it call. */
  appOrigin: string;
  /** The owner of a valid access token; null answers 401, as Drive does for an expired token. */
  verifyToken: (token: string) => Promise<{ email: string } | null>;
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  content: Buffer;
}

export interface DriveFake {
  url: string;
  /** The steps Drive answered, in order; a programmed failure as e.g. `about:401`. */
  calls: string[];
  /** Requests refused with 400 because their shape deviated from Drive v3, each with the reason. */
  rejections: string[];
  files: Map<string, DriveFile>;
  /** The next request of `step` fails as given. */
  failNext(step: DriveStep, failure: DriveFailure): void;
  reset(): void;
  close(): Promise<void>;
}

/** A deviation from what Drive v3 accepts: answered with 400. */
class BadRequest extends Error {}

function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new BadRequest(reason);
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * A stand-in for Google Drive v3 (and a Docs page) on 127.0.0.1: the four calls of the hand-over,
 * each checked strictly against the shape Drive expects, so that a browser test proves the app's
 * requests and not just their count.
 */
export async function startDriveFake(options: DriveFakeOptions): Promise<DriveFake> {
  const url = `http://127.0.0.1:${options.port}`;
  const calls: string[] = [];
  const rejections: string[] = [];
  const files = new Map<string, DriveFile>();
  const failures = new Map<DriveStep, DriveFailure>();
  let nextId = 1;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestUrl = new URL(request.url ?? '/', url);
    const method = request.method ?? 'GET';

    if (method === 'GET' && /^\/document\/d\/[^/]+\/edit$/.test(requestUrl.pathname)) {
      return documentPage(response, decodeURIComponent(requestUrl.pathname.split('/')[3] ?? ''));
    }

    allowOrigin(request, response);
    if (method === 'OPTIONS') return preflight(request, response);

    const route = routeOf(method, requestUrl.pathname);
    if (!route) return json(response, 404, { error: { code: 404, message: 'Not Found' } });

    try {
      const body = await readBody(request);
      const user = await authorize(request);
      if (!user) return json(response, 401, { error: { code: 401, message: 'Invalid Credentials' } });
      const answer = answerFor(route.step, route.fileId, requestUrl, request, body, user.email);
      const failure = failures.get(route.step);
      failures.delete(route.step);
      if (failure === 'hang') {
        // Never answered: the app's timeout must end the wait. close() drops the connection.
        calls.push(`${route.step}:hang`);
        return;
      }
      if (failure !== undefined) {
        calls.push(`${route.step}:${failure}`);
        return json(response, failure, { error: { code: failure, message: 'Programmed failure' } });
      }
      const [status, payload] = answer();
      calls.push(route.step);
      return json(response, status, payload);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      rejections.push(`${method} ${requestUrl.pathname}${requestUrl.search}: ${error.message}`);
      return json(response, 400, { error: { code: 400, message: error.message } });
    }
  }

  /** Checks the request and returns how to answer it; the change of state waits for the answer. */
  function answerFor(
    step: DriveStep,
    fileId: string | undefined,
    requestUrl: URL,
    request: IncomingMessage,
    body: Buffer,
    email: string,
  ): () => [number, unknown] {
    switch (step) {
      case 'about':
        checkQuery(requestUrl, { fields: 'user' });
        check(body.length === 0, 'about takes no body');
        return () => [200, { user: { kind: 'drive#user', displayName: email, emailAddress: email } }];

      case 'upload': {
        checkQuery(requestUrl, { uploadType: 'multipart', fields: 'id' });
        const upload = parseUpload(request.headers['content-type'], body);
        return () => {
          const id = `upload-${nextId++}`;
          files.set(id, { id, mimeType: DOCX_MIME_TYPE, ...upload });
          return [200, { id }];
        };
      }

      case 'copy': {
        checkQuery(requestUrl, { fields: 'id,webViewLink' });
        const source = files.get(fileId ?? '');
        check(source, `no file ${fileId} to copy`);
        check(source.mimeType === DOCX_MIME_TYPE, 'the copy must start from the uploaded DOCX');
        check(request.headers['content-type']?.startsWith('application/json'), 'copy takes a JSON body');
        const metadata = parseJson(body);
        checkKeys(metadata, ['name', 'mimeType']);
        check(typeof metadata.name === 'string' && metadata.name.trim(), 'the copy needs a name');
        check(
          metadata.mimeType === GOOGLE_DOCS_MIME_TYPE,
          `the copy must be converted to ${GOOGLE_DOCS_MIME_TYPE}, not ${String(metadata.mimeType)}`,
        );
        return () => {
          const id = `doc-${nextId++}`;
          files.set(id, {
            id,
            name: metadata.name as string,
            mimeType: GOOGLE_DOCS_MIME_TYPE,
            content: source.content,
          });
          return [200, { id, webViewLink: `${url}/document/d/${id}/edit` }];
        };
      }

      case 'delete': {
        checkQuery(requestUrl, {});
        check(body.length === 0, 'delete takes no body');
        const file = files.get(fileId ?? '');
        check(file, `no file ${fileId} to delete`);
        check(
          file.mimeType === DOCX_MIME_TYPE,
          'only the uploaded DOCX is temporary; the Google Doc must stay',
        );
        return () => {
          files.delete(file.id);
          return [204, undefined];
        };
      }
    }
  }

  function documentPage(response: ServerResponse, id: string): void {
    const file = files.get(id);
    if (!file || file.mimeType !== GOOGLE_DOCS_MIME_TYPE) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const name = escapeHtml(file.name);
    response
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="de"><title>${name} – Google Docs</title><h1>${name}</h1></html>`);
  }

  function allowOrigin(request: IncomingMessage, response: ServerResponse): void {
    if (request.headers.origin === options.appOrigin) {
      response.setHeader('Access-Control-Allow-Origin', options.appOrigin);
      response.setHeader('Vary', 'Origin');
    }
  }

  function preflight(request: IncomingMessage, response: ServerResponse): void {
    const requested = request.headers['access-control-request-method'] ?? '';
    if (request.headers.origin !== options.appOrigin || !['GET', 'POST', 'DELETE'].includes(requested)) {
      response.writeHead(403).end();
      return;
    }
    response
      .writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      })
      .end();
  }

  async function authorize(request: IncomingMessage): Promise<{ email: string } | null> {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    return token ? options.verifyToken(token) : null;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('Drive fake failed', error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });

  return {
    url,
    calls,
    rejections,
    files,
    failNext(step, failure) {
      failures.set(step, failure);
    },
    reset() {
      calls.length = 0;
      rejections.length = 0;
      failures.clear();
      files.clear();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function routeOf(method: string, path: string): { step: DriveStep; fileId?: string } | null {
  if (method === 'GET' && path === '/drive/v3/about') return { step: 'about' };
  if (method === 'POST' && path === '/upload/drive/v3/files') return { step: 'upload' };
  const copy = /^\/drive\/v3\/files\/([^/]+)\/copy$/.exec(path);
  if (method === 'POST' && copy?.[1]) return { step: 'copy', fileId: decodeURIComponent(copy[1]) };
  const file = /^\/drive\/v3\/files\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && file?.[1]) return { step: 'delete', fileId: decodeURIComponent(file[1]) };
  return null;
}

function checkQuery(requestUrl: URL, expected: Record<string, string>): void {
  const actual = Object.fromEntries(requestUrl.searchParams);
  check(
    JSON.stringify(Object.entries(actual).sort()) === JSON.stringify(Object.entries(expected).sort()),
    `query ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`,
  );
}

function checkKeys(object: Record<string, unknown>, keys: string[]): void {
  const actual = Object.keys(object).sort();
  check(JSON.stringify(actual) === JSON.stringify([...keys].sort()), `fields ${actual} instead of ${keys}`);
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    check(typeof value === 'object' && value !== null && !Array.isArray(value), 'the JSON is no object');
    return value as Record<string, unknown>;
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    throw new BadRequest('the body is no JSON');
  }
}

/** A multipart upload (RFC 2387) as Drive takes it: JSON metadata, then the DOCX. */
function parseUpload(contentType: string | undefined, body: Buffer): { name: string; content: Buffer } {
  const boundary = /^multipart\/related;\s*boundary="?([^";]+)"?$/i.exec(contentType ?? '')?.[1];
  check(boundary, `Content-Type ${contentType} instead of multipart/related with a boundary`);
  const [metadataPart, mediaPart, ...rest] = multipartParts(body, boundary);
  check(metadataPart && mediaPart && rest.length === 0, 'the upload needs exactly two parts');

  check(
    /^application\/json(;\s*charset=utf-8)?$/i.test(metadataPart.headers['content-type'] ?? ''),
    `metadata part of type ${metadataPart.headers['content-type']}`,
  );
  const metadata = parseJson(metadataPart.content);
  checkKeys(metadata, ['name', 'mimeType']);
  check(typeof metadata.name === 'string' && /\.docx$/i.test(metadata.name), `file name ${metadata.name}`);
  check(metadata.mimeType === DOCX_MIME_TYPE, `metadata mimeType ${String(metadata.mimeType)}`);

  check(
    mediaPart.headers['content-type'] === DOCX_MIME_TYPE,
    `file part of type ${mediaPart.headers['content-type']}`,
  );
  // Every DOCX is a ZIP archive.
  check(mediaPart.content.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')), 'the file is no DOCX');
  return { name: metadata.name, content: mediaPart.content };
}

function multipartParts(
  body: Buffer,
  boundary: string,
): Array<{ headers: Record<string, string>; content: Buffer }> {
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  check(body.subarray(0, delimiter.length).equals(delimiter), 'the body does not start with the boundary');
  const parts: Array<{ headers: Record<string, string>; content: Buffer }> = [];
  let position = delimiter.length;
  for (;;) {
    const after = body.subarray(position, position + 2).toString('latin1');
    if (after === '--') break;
    check(after === '\r\n', 'a boundary is not followed by CRLF');
    const end = body.indexOf(nextDelimiter, position);
    check(end >= 0, 'the body lacks its closing boundary');
    const part = body.subarray(position + 2, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    check(headerEnd >= 0, 'a part lacks its headers');
    const headers = Object.fromEntries(
      part
        .subarray(0, headerEnd)
        .toString('utf8')
        .split('\r\n')
        .map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
    );
    parts.push({ headers, content: part.subarray(headerEnd + 4) });
    position = end + nextDelimiter.length;
  }
  return parts;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function json(response: ServerResponse, status: number, payload: unknown): void {
  if (payload === undefined) {
    response.writeHead(status).end();
    return;
  }
  response
    .writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' })
    .end(JSON.stringify(payload));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
