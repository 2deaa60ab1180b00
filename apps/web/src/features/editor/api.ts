import { queryOptions } from '@tanstack/react-query';
import {
  DOCX_MIME_TYPE,
  parseVersionNumber,
  type StoredDocument,
  storedDocumentSchema,
} from '@vertragsgenerator/domain';
import { ApiRequestError, apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';
import { texts } from '@/texts';

function documentUrl(documentId: string, suffix = ''): string {
  return `/backend/documents/${encodeURIComponent(documentId)}${suffix}`;
}

function versionFileUrl(documentId: string, version: number): string {
  return documentUrl(documentId, `/versions/${version}/file`);
}

export function storedDocumentQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: ['stored-document', documentId],
    queryFn: ({ signal }) => apiJson(documentUrl(documentId), storedDocumentSchema, { signal }),
  });
}

/** A version's DOCX as the editor opens it, with the number every save refers to. */
export interface DocumentFile {
  docx: Blob;
  version: number;
}

/** Which version to open: a number, or whatever the server holds as the newest. */
export type VersionChoice = number | 'latest';

/**
 * The bytes of one opening of a version: `opening` counts the openings, so that opening the newest
 * version again fetches it afresh. A version's bytes never change, and they are dropped as soon as the
 * editor no longer shows them.
 */
export function documentFileQueryOptions(documentId: string, choice: VersionChoice, opening: number) {
  return queryOptions({
    queryKey: ['stored-document-file', documentId, choice, opening],
    queryFn: ({ signal }) => loadDocumentFile(documentId, choice, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

async function loadDocumentFile(
  documentId: string,
  choice: VersionChoice,
  signal: AbortSignal,
): Promise<DocumentFile> {
  if (choice !== 'latest') {
    const response = await apiFetch(versionFileUrl(documentId, choice), { signal });
    return { docx: await response.blob(), version: choice };
  }
  // The newest version and its number in one answer: asking the list first could name a version that
  // is no longer the newest when its file arrives.
  const response = await apiFetch(documentUrl(documentId, '/file'), { signal });
  const version = parseVersionNumber(response.headers.get('x-document-version'));
  if (version === undefined) {
    throw new ApiRequestError(response.status, 'invalid_response', texts.api.unexpectedAnswer);
  }
  return { docx: await response.blob(), version };
}

/**
 * Stores the edited DOCX as the next version. `baseVersion` is the version the edit started from: the
 * server refuses the save with 409 `version_conflict` when someone saved a newer one meanwhile.
 * Resolves with the document's versions and the number of the one just saved.
 */
export async function saveDocument(
  documentId: string,
  docx: Blob,
  baseVersion: number,
): Promise<{ document: StoredDocument; version: number }> {
  const document = await apiJson(documentUrl(documentId), storedDocumentSchema, {
    method: 'PUT',
    // The editor's export may carry no type; the server takes only DOCX.
    body: new Blob([docx], { type: DOCX_MIME_TYPE }),
    headers: { 'If-Match': `"${baseVersion}"` },
  });
  const version = document.versions[0]?.version;
  if (version === undefined) throw new ApiRequestError(200, 'invalid_response', texts.api.unexpectedAnswer);
  return { document, version };
}

/**
 * The download a person saves: refused (409 `approval_required`, its message shown) while the version
 * needs an approval it does not have. Opening a version in the editor reads `…/file` instead.
 */
export async function downloadDocumentVersion(document: StoredDocument, version: number): Promise<void> {
  const response = await apiFetch(documentUrl(document.id, `/download?version=${version}`));
  downloadFile(await response.blob(), document.fileName);
}
