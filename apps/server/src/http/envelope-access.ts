import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mayReadDocument } from '../auth/document-access.js';
import { forbidden, HttpError, notFound } from '../shared/http-error.js';
import type { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { currentUser } from './guards.js';
import { isUuid } from './path-values.js';

/** What the sender view's routes (routes/signature.ts) and its files (routes/envelope-files.ts) share. */

export type EnvelopeRequest = FastifyRequest<{ Params: { id: string } }>;

export const envelopeParams = z.object({ id: z.uuid().describe('The envelope id') });
export const envelopeErrors = {
  403: 'The permission level may not see this envelope’s document',
  404: 'Unknown envelope',
};
/** The files of an envelope whose document a retention rule deleted: the envelope stays, its files are gone. */
export const deletedFiles = { 410: 'A retention rule deleted the envelope’s document and files' };

/** The envelope's file name while its document exists; 410 once a retention rule deleted it. */
export function keptFileName(envelope: { file_name: string | null }): string {
  if (envelope.file_name === null) {
    throw new HttpError(
      410,
      'document_deleted',
      'Das Dokument dieses Umschlags wurde nach Ablauf seiner Aufbewahrungsfrist gelöscht. Der Umschlag ist damit beendet: für einen neuen Versand erzeuge das Dokument neu; Namen der Beteiligten löschst du bei Bedarf unter Verwaltung → Personendaten.',
    );
  }
  return envelope.file_name;
}

/** The envelope if the user may see it: someone who may read its document. */
export async function readableEnvelope(envelopes: EnvelopesRepository, request: EnvelopeRequest) {
  const id = request.params.id;
  const envelope = isUuid(id) ? await envelopes.summary(id) : undefined;
  if (!envelope) throw notFound('Diesen Umschlag gibt es nicht.');
  if (!mayReadDocument(currentUser(request), envelope.doc_key)) {
    throw forbidden('Diesen Umschlag darfst du mit deiner Berechtigung nicht sehen.');
  }
  return envelope;
}
