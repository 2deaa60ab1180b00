import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentHeader } from '../documents/file-name.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { notFound } from '../http/errors.js';
import type { Actor } from '../signature/envelopes-repository.js';

/** What the sender view's routes and the signer routes share. */

export const PDF_MIME = 'application/pdf';

/** Who acted, as envelope events record it: the client's address and browser. */
export function clientActor(request: FastifyRequest): Omit<Actor, 'email'> {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 500) : null };
}

/** A PDF rendition where LibreOffice is installed; 404 otherwise, and the browser shows the DOCX. */
export async function sendPdf(
  reply: FastifyReply,
  request: FastifyRequest,
  pdf: PdfRenditions,
  docx: Uint8Array,
  fileName: string,
) {
  let rendition: Uint8Array | null;
  try {
    rendition = await pdf.render(docx);
  } catch (error) {
    request.log.warn({ err: error }, 'pdf rendition failed');
    rendition = null;
  }
  if (!rendition) throw notFound('Für dieses Dokument gibt es keine PDF-Ansicht.');
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      attachmentHeader(fileName.replace(/\.docx$/i, '.pdf')).replace(/^attachment/, 'inline'),
    )
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(rendition));
}
