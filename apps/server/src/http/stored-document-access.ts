import type { FastifyRequest } from 'fastify';
import { mayReadDocument } from '../auth/document-access.js';
import type { DocumentSummary, DocumentsRepository } from '../documents/documents-repository.js';
import { forbidden, notFound } from '../shared/http-error.js';
import { currentUser } from './guards.js';
import { isUuid } from './path-values.js';

/** What the routes of a stored document (routes/stored-documents.ts, routes/document-approvals.ts) share. */

export type DocumentRequest = FastifyRequest<{ Params: { id: string } }>;

export const documentErrors = {
  403: 'The permission level may not open this document’s key',
  404: 'Unknown document',
};

/** The document if the user may open it; a malformed id is just unknown. */
export async function readableDocument(
  documents: DocumentsRepository,
  request: DocumentRequest,
): Promise<DocumentSummary> {
  const id = request.params.id;
  const document = isUuid(id) ? await documents.find(id) : undefined;
  if (!document) throw notFound('Dieses Dokument gibt es nicht.');
  if (!mayReadDocument(currentUser(request), document.doc_key)) {
    throw forbidden('Dieses Dokument darfst du mit deiner Berechtigung nicht sehen.');
  }
  return document;
}
