import { z } from 'zod';

/** The media type of every document the app generates, stores, edits and has signed: a Word document. */
export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * The built-in editor's view of a stored document (`GET, PUT /backend/documents/:id`):
 * version 1 is the generated file, every `Speichern` adds the next version.
 */
export const documentVersionSchema = z.object({
  version: z.number().int().min(1),
  size: z.number().int(),
  sha256: z.string(),
  /** E-mail of who generated (version 1) or saved it. */
  createdBy: z.string(),
  createdAt: z.string(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

export const storedDocumentSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  docKey: z.string(),
  fileName: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Newest first. */
  versions: z.array(documentVersionSchema),
});
export type StoredDocument = z.infer<typeof storedDocumentSchema>;

/**
 * `PUT /backend/documents/:id` takes the DOCX as body and the version it was edited from as
 * `If-Match: "<version>"`; a newer version on the server answers 409 with this code.
 */
export const VERSION_CONFLICT = 'version_conflict';
