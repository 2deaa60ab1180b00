import {
  DOCX_MIME_TYPE,
  formatDateTime,
  parseVersionNumber,
  type StoredDocument,
  storedDocumentSchema,
  VERSION_CONFLICT,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import PizZip from 'pizzip';
import { z } from 'zod';
import type {
  DocumentSummary,
  DocumentsRepository,
  VersionSummary,
} from '../documents/documents-repository.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';
import { documentErrors, readableDocument } from '../http/stored-document-access.js';
import { HttpError, notFound } from '../shared/http-error.js';

export interface StoredDocumentRoutesDeps {
  guards: AuthGuards;
  documents: DocumentsRepository;
  /** Refuses a save while the document may not change (a negotiation round out with the counterparty). */
  editable?: (documentId: string) => Promise<void>;
}

/** Edited contracts with pictures or scans outgrow the global body limit of 1 MB. */
const MAX_DOCX_BYTES = 20 * 1024 * 1024;

const documentParams = z.object({
  id: z.uuid().describe('The document id (`X-Document-Id` of its generation)'),
});

/**
 * The built-in DOCX editor's documents: a document's versions, their files, and saving an
 * edit as the next version. A save names the version it was edited from (`If-Match`), so an edit of
 * an outdated version is refused instead of silently replacing someone else's.
 */
export const storedDocumentRoutes: FastifyPluginAsync<StoredDocumentRoutesDeps> = async (
  app,
  { guards, documents, editable },
) => {
  // On request, before the body is read: nobody without access gets to upload 20 MB.
  const staff = { onRequest: guards.session('staff') };

  // Only in this plugin: elsewhere a DOCX body stays an unsupported media type.
  app.addContentTypeParser(DOCX_MIME_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  /** The document if the user may open and change it; a malformed id is just unknown. */
  async function storedDocument(document: DocumentSummary): Promise<StoredDocument> {
    const versions = await documents.versions(document.id);
    return {
      id: document.id,
      matchId: document.match_id,
      docKey: document.doc_key,
      fileName: document.file_name,
      createdBy: document.created_by,
      createdAt: document.created_at.toISOString(),
      versions: versions.map((v) => ({
        version: v.version,
        size: v.size,
        sha256: v.sha256,
        createdBy: v.created_by,
        createdAt: v.created_at.toISOString(),
      })),
    };
  }

  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id',
    {
      ...staff,
      schema: {
        tags: ['stored documents'],
        summary: 'A stored document and its versions',
        security: BEARER,
        params: documentParams,
        response: {
          200: storedDocumentSchema.describe('The document, versions newest first'),
          ...errorAnswers([401, 403, 404], documentErrors),
        },
      },
    },
    async (request) => storedDocument(await readableDocument(documents, request)),
  );

  app.get<{ Params: { id: string } }>(
    '/backend/documents/:id/file',
    {
      ...staff,
      schema: {
        tags: ['stored documents'],
        summary: 'The newest version of a stored document as DOCX',
        description: 'The `X-Document-Version` header names the version, for `If-Match` when saving.',
        security: BEARER,
        params: documentParams,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The newest version'),
          ...errorAnswers([401, 403, 404], documentErrors),
        },
      },
    },
    async (request, reply) => {
      const document = await readableDocument(documents, request);
      const latest = await documents.latestContent(document.id);
      if (!latest) throw notFound('Dieses Dokument wurde nicht fertig erstellt.');
      return sendVersion(reply, document, latest.version, latest.content);
    },
  );

  app.get<{ Params: { id: string; version: string } }>(
    '/backend/documents/:id/versions/:version/file',
    {
      ...staff,
      schema: {
        tags: ['stored documents'],
        summary: 'One version of a stored document as DOCX',
        security: BEARER,
        params: documentParams.extend({
          version: z.string().regex(/^\d+$/).describe('The version number, from 1'),
        }),
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The version'),
          ...errorAnswers([400, 401, 403, 404], {
            ...documentErrors,
            400: 'The version is not a positive whole number',
            404: 'Unknown document or version',
          }),
        },
      },
    },
    async (request, reply) => {
      const document = await readableDocument(documents, request);
      const version = parseVersionNumber(request.params.version);
      if (version === undefined) {
        throw new HttpError(400, 'invalid_input', 'Die Versionsnummer muss eine positive ganze Zahl sein.');
      }
      const content = await documents.versionContent(document.id, version);
      if (!content) throw notFound(`Version ${version} dieses Dokuments gibt es nicht.`);
      return sendVersion(reply, document, version, content);
    },
  );

  app.put<{ Params: { id: string } }>(
    '/backend/documents/:id',
    {
      ...staff,
      bodyLimit: MAX_DOCX_BYTES,
      schema: {
        tags: ['stored documents'],
        summary: 'Save an edit as the next version',
        description: `The body is the DOCX, at most ${MAX_DOCX_BYTES / 1024 / 1024} MB.`,
        security: BEARER,
        params: documentParams,
        headers: z.object({
          'if-match': z.string().describe('The version the edit started from, e.g. `"3"`'),
        }),
        consumes: [DOCX_MIME_TYPE],
        body: z.file().mime(DOCX_MIME_TYPE),
        response: {
          200: storedDocumentSchema.describe('The document with the new version'),
          ...errorAnswers([400, 401, 403, 404, 409, 413, 428], {
            ...documentErrors,
            400: 'The body is no DOCX',
            409: 'A newer version was saved meanwhile (`version_conflict`), the document is not ready, or a negotiation round is out with the counterparty',
          }),
        },
      },
    },
    async (request): Promise<StoredDocument> => {
      const document = await readableDocument(documents, request);
      const baseVersion = ifMatchVersion(request.headers['if-match']);
      if (baseVersion === undefined) {
        throw new HttpError(
          428,
          'precondition_required',
          'Beim Speichern fehlt, welche Version du bearbeitet hast (If-Match mit der Versionsnummer).',
        );
      }
      const content = request.body;
      if (!isDocx(content)) {
        throw new HttpError(400, 'invalid_input', 'Die Datei ist kein gültiges Word-Dokument (DOCX).');
      }
      if (document.status === 'rendering') {
        throw new HttpError(
          409,
          'document_not_ready',
          'Das Dokument wird gerade noch erstellt. Versuche es in einem Moment erneut.',
        );
      }
      if (document.status === 'failed') {
        throw new HttpError(
          409,
          'document_not_ready',
          'Dieses Dokument konnte nicht erstellt werden, es gibt nichts zu bearbeiten.',
        );
      }
      await editable?.(document.id);
      const outcome = await documents.addVersion(
        document.id,
        baseVersion,
        content,
        currentUser(request).email,
      );
      if ('conflict' in outcome) {
        throw new HttpError(409, VERSION_CONFLICT, conflictMessage(outcome.conflict, baseVersion));
      }
      return storedDocument(document);
    },
  );
};

/** The editor reads which version it got, to name it in `If-Match` when it saves. */
function sendVersion(reply: FastifyReply, document: DocumentSummary, version: number, content: Uint8Array) {
  reply.header('x-document-version', String(version));
  return sendFile(reply, content, document.file_name, DOCX_MIME_TYPE);
}

/** `If-Match: "3"` as HTTP spells entity tags, or a bare `3`; anything else (`*`, `W/"3"`) names no version. */
function ifMatchVersion(header: string | undefined): number | undefined {
  const match = header?.trim().match(/^(?:"(\d+)"|(\d+))$/);
  const text = match?.[1] ?? match?.[2];
  return text === undefined ? undefined : parseVersionNumber(text);
}

/** A DOCX is a ZIP archive with a main document part; Word opens nothing less. */
function isDocx(body: unknown): body is Buffer {
  if (!Buffer.isBuffer(body)) return false;
  try {
    return new PizZip(body).file('word/document.xml') !== null;
  } catch {
    // PizZip throws on anything that is not a ZIP archive.
    return false;
  }
}

function conflictMessage(latest: VersionSummary, baseVersion: number): string {
  const when = formatDateTime(latest.created_at);
  // Only a confused client names a version that does not exist yet: "inzwischen gespeichert" would be untrue.
  if (latest.version < baseVersion) {
    return `Version ${baseVersion} gibt es nicht, die neueste ist Version ${latest.version} (${latest.created_by}, ${when}). Lade sie, bevor du speicherst.`;
  }
  return `Das Dokument wurde inzwischen von ${latest.created_by} gespeichert (Version ${latest.version}, ${when}). Lade die neue Version, bevor du speicherst.`;
}
